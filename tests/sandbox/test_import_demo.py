"""Demo data: company 1's income policies and the invoices imported through them."""
from __future__ import annotations

from decimal import Decimal

import pytest
import requests

from app.policies.validate import ERROR, validate
from sandbox.core.server import start

ADMIN = {"Authorization": "Token demo-admin"}


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    """A demo-seeded sandbox."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("demo") / "demo.db"),
                        seed="demo")
    yield url
    server.shutdown()


@pytest.fixture(scope="module")
def policies(demo_url) -> dict:
    """Company 1's stored income_policies."""
    return requests.get(f"{demo_url}/2/company-info/", headers=ADMIN,
                        timeout=10).json()["income_policies"]


@pytest.fixture(scope="module")
def imported(demo_url) -> dict[str, dict]:
    """The demo's policy-imported incomes by invoice number, each with its trace."""
    body = requests.get(f"{demo_url}/1/incomes/", params={"page_size": 1000, "type": "1,6"},
                        headers=ADMIN, timeout=30).json()
    found = {}
    for income in body["results"]["incomes"]:
        if "-P0" in income["invoice_number"]:
            trace = requests.get(f"{demo_url}/_sandbox/incomes/{income['id']}/policy-trace/",
                                 headers=ADMIN, timeout=10).json()["trace"]
            found[income["invoice_number"].split("-")[-1]] = {**income, "trace": trace}
    return found


def test_demo_company_has_a_valid_v2_configuration_with_hungarian_names(policies):
    assert policies["v"] == 2 and policies["skip_for_multiple_match"] is True
    assert 5 <= len(policies["policies"]) <= 7
    assert "Szoftverlicenc bevételek" in [p["name"] for p in policies["policies"]]
    assert [p["name"] for p in policies["ignore_policies"]] == ["Tesztszámlák kihagyása"]
    assert [p for p in validate(policies) if p.level == ERROR] == []


def test_demo_configuration_keeps_a_key_the_engine_does_not_know(policies):
    assert policies["policies"][0]["x_megjegyzes"].startswith("A partnerlistát")


def test_demo_export_invoice_is_split_seventy_thirty(imported):
    income = imported["P003"]
    grosses = [Decimal(a["gross_amount"]) for a in income["assignments"]]
    assert sum(grosses) == Decimal(income["gross_amount"])
    assert grosses[0] == (Decimal(income["gross_amount"]) * Decimal("0.7")).quantize(
        Decimal("0.01"))
    assert {"field": "split", "policy_name": "EUR exportbevétel"} in income["trace"]


def test_demo_big_software_invoice_is_a_skipped_multiple_match(imported):
    income = imported["P004"]
    assert income["needs_review"] is True
    assert income["assignments"][0]["revenue_type"] is None
    assert {t["policy_name"] for t in income["trace"]} == {"Szoftverlicenc bevételek",
                                                         "Kiemelt nagy összegű bevétel"}


def test_demo_test_invoice_was_ignored(imported):
    assert "P007" not in imported
    assert {"P001", "P002", "P003", "P004", "P005", "P006"} <= imported.keys()


def test_import_on_the_demo_company_applies_its_policies(demo_url):
    body = {"source": "billingo", "invoice_number": "DEMO-IMPORT-1", "issued_at": "2026-03-10",
            "partner": {"name": "Gamma Soft Kft.", "tax_number": "56789012-2-41"},
            "net_amount": "100000", "vat_amount": "27000", "gross_amount": "127000",
            "items": [{"name": "Licenc", "unit_price": "100000", "vat_percent": 27}]}
    resp = requests.post(f"{demo_url}/_sandbox/import-income/", json=body, headers=ADMIN,
                         timeout=10)
    assert resp.status_code == 201
    assert resp.json()["policy"]["applied"] == "Szoftverlicenc bevételek"
    assert resp.json()["income"]["assignments"][0]["revenue_type"]["name"] == "Szoftverlicenc"
