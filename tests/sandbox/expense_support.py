"""Helpers for the expense and artifact tests: catalogue ids, fixture expenses, sample files."""
from __future__ import annotations

import base64
from dataclasses import dataclass

import pytest
import requests

from sandbox.core.demo_files import minimal_pdf, tiny_png

PDF = minimal_pdf("Szamla TEST-1")
PNG = tiny_png(3)
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
XML = b'<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><Number>X-1</Number></Invoice>\n'


@dataclass
class ExpenseCatalogue:
    """Ids of the test company's catalogue, fetched over the API."""

    expense_types: list[int]
    tags: list[int]
    vats: list[int]
    ledger_numbers: list[int]
    revenue_types: list[int]
    revenue_vats: list[int]


def _ids(api, path: str, **match) -> list[int]:
    resp = api.get(path)
    assert resp.status_code == 200, resp.text
    rows = resp.json()
    return sorted(r["id"] for r in rows if all(r.get(k) == v for k, v in match.items()))


@pytest.fixture
def ecat(api) -> ExpenseCatalogue:
    """The test company's expense-related catalogue ids."""
    vat_path = "/2/accounting/vat-categories/"
    return ExpenseCatalogue(
        expense_types=_ids(api, "/2/expense-types/"), tags=_ids(api, "/2/tags/"),
        vats=_ids(api, vat_path, type="cost"),
        ledger_numbers=_ids(api, "/2/accounting/ledger-numbers/"),
        revenue_types=_ids(api, "/2/revenue-types/"), revenue_vats=_ids(api, vat_path,
                                                                         type="revenue"))


def assignment(cat: ExpenseCatalogue, net="1000.00", vat="270.00", gross="1270.00",
               **extra) -> dict:
    """A valid assignment payload."""
    return {"expense_type": cat.expense_types[0], "net_amount": net, "vat_amount": vat,
            "gross_amount": gross, "vat": cat.vats[0], **extra}


def make_expense(api, cat: ExpenseCatalogue | None = None, **spec) -> dict:
    """Create an expense in any state through /_sandbox/expenses/; asserts 201."""
    if cat is not None and "assignments" not in spec:
        spec["assignments"] = [assignment(cat)]
    resp = requests.post(f"{api.base}/_sandbox/expenses/",
                         json={"company_id": api.company.id, **spec}, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def set_state(api, expense_id: int, **state) -> dict:
    """Change an expense's state through /_sandbox/; asserts 200."""
    resp = requests.post(f"{api.base}/_sandbox/expenses/{expense_id}/state/", json=state,
                         timeout=10)
    assert resp.status_code == 200, resp.text
    return resp.json()


def artifact(data: bytes = PDF, filename: str = "szamla.pdf") -> dict:
    """The artifact spec of make_expense."""
    return {"filename": filename, "content_base64": base64.b64encode(data).decode()}


def detail(api, expense_id: int) -> dict:
    """GET /2/expenses/{id}/; asserts 200."""
    resp = api.get(f"/2/expenses/{expense_id}/")
    assert resp.status_code == 200, resp.text
    return resp.json()


def listing(api, query: str = "", **params) -> dict:
    """GET /2/expenses with a raw query string and/or params; asserts 200."""
    resp = api.get(f"/2/expenses{'?' + query if query else ''}", params=params)
    assert resp.status_code == 200, resp.text
    return resp.json()


def listed_ids(api, query: str = "", **params) -> list[int]:
    """Ids of the expenses a list query returns (first page, page_size 1000)."""
    params.setdefault("page_size", 1000)
    return [e["id"] for e in listing(api, query, **params)["results"]["expenses"]]


def patch(api, expense_id: int, body, token: str = "admin") -> requests.Response:
    """PATCH /2/expenses/{id}/update/."""
    return api.patch(f"/2/expenses/{expense_id}/update/", json=body, token=token)


@pytest.fixture
def advanced_api(sandbox_url, make_company):
    """A client for a fresh company with advanced accounting on."""
    from conftest import Api

    return Api(sandbox_url, make_company(advanced_accounting=True))


@pytest.fixture
def other_api(sandbox_url, make_company):
    """A client for a second, unrelated company."""
    from conftest import Api

    return Api(sandbox_url, make_company())
