"""Spec part 9: schemathesis against the live sandbox and its own /2/schema/ document.

Every GET operation and a chosen few writes get generated requests; each answer must not be a
server error and must match the documented response schema for its status.
"""
from __future__ import annotations

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.conftest import create_company

schemathesis.experimental.OPEN_API_3_1.enable()

# Writes that are safe to hammer on a throwaway company and cheap to run.
WRITES = frozenset({
    "company_info_update", "incomes_create", "incomes_update", "expenses_update",
    "partners_create", "partners_update", "tags_create", "tags_update", "tags_delete",
    "revenue_types_create", "expense_types_update", "taxes_create", "salaries_delete",
    "vat_categories_create", "ledger_numbers_create", "artifacts_by_ids",
})
CHECKS = (not_a_server_error, status_code_conformance, response_schema_conformance)


@pytest.fixture(scope="module")
def fuzz_company(sandbox_url):
    """One throwaway company for the whole run."""
    return create_company(sandbox_url)


@pytest.fixture(scope="module")
def fuzz_headers(fuzz_company):
    """Admin auth and the company header for every generated request."""
    return {"Authorization": f"Token {fuzz_company.tokens['admin']}",
            "Service-Company-Id": str(fuzz_company.id)}


@pytest.fixture(scope="module")
def raw_schema(sandbox_url, fuzz_headers):
    """The schema as the sandbox serves it (English texts)."""
    resp = requests.get(f"{sandbox_url}/2/schema/?lang=en", headers=fuzz_headers, timeout=10)
    resp.raise_for_status()
    return resp.json()


def _selected(ctx) -> bool:
    definition = ctx.operation.definition.raw
    return ctx.operation.method.upper() == "GET" or definition["operationId"] in WRITES


@pytest.fixture
def live_schema(raw_schema, sandbox_url):
    """schemathesis' view of the live schema: every GET and the chosen writes."""
    return schemathesis.from_dict(raw_schema, base_url=sandbox_url).include(func=_selected)


schema = schemathesis.from_pytest_fixture("live_schema")


@schema.parametrize()
@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck), derandomize=True)
def test_sandbox_conforms_to_its_schema(case, fuzz_headers):
    case.headers = {**(case.headers or {}), **fuzz_headers}
    response = case.call(timeout=10)
    case.validate_response(response, checks=CHECKS)
