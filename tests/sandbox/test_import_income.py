"""POST /_sandbox/import-income/: a synced invoice, with the company's income policies applied."""
from __future__ import annotations

from decimal import Decimal

import pytest

SOFTWARE = {"name": "Szoftverlicenc bevételek", "match": "all",
            "conditions": [{"field": "partner_name", "op": "contains", "value": "Soft"}],
            "set": {"revenue_type": "Szoftverlicenc", "tags": ["Licenc", "Budapest"],
                    "job_number": "LIC-2026"}}
EXPORT = {"name": "EUR exportbevétel",
          "conditions": [{"field": "currency", "op": "equals", "value": "EUR"}],
          "set": {"split": [{"percent": 70, "revenue_type": "Export"},
                            {"percent": 30, "revenue_type": "Szolgáltatás",
                             "ledger_number": "931"}]}}
BIG = {"name": "Nagy összeg", "conditions": [{"field": "gross_amount", "op": "gte",
                                              "value": 1000}],
       "set": {"revenue_type": "Nagy tétel", "tags": ["Kiemelt"]}}
TEST_INVOICES = {"name": "Tesztszámlák",
                 "conditions": [{"field": "invoice_number", "op": "starts_with", "value": "TEST"}]}


def config(*policies, skip=False, ignore=()) -> dict:
    """An income_policies object."""
    return {"v": 2, "skip_for_multiple_match": skip, "policies": list(policies),
            "ignore_policies": list(ignore)}


def invoice(number: str, **fields) -> dict:
    """An import body: a HUF invoice of 1270 to Alpha Soft Kft. with one 27% line."""
    body = {"source": "szamlazz.hu", "invoice_number": number, "issued_at": "2026-03-02",
            "partner": {"name": "Alpha Soft Kft.", "tax_number": "12345678-2-42"},
            "net_amount": "1000.00", "vat_amount": "270.00", "gross_amount": "1270.00",
            "items": [{"name": "Licenc", "unit_price": "1000.00", "vat_percent": 27}]}
    body.update(fields)
    return body


@pytest.fixture
def importer(api):
    """set(config) stores the policies through the API; run(body) imports an invoice."""

    class Importer:
        def set(self, value):
            resp = api.patch(f"/2/company-info/update/{api.company.id}/",
                             json={"income_policies": value})
            assert resp.status_code == 200, resp.text

        def run(self, body, token="admin"):
            return api.post("/_sandbox/import-income/", json=body, token=token)

    return Importer()


def _names(api, path: str) -> dict[str, dict]:
    return {row["name"]: row for row in api.get(path).json()}


def test_matching_policy_sets_revenue_type_tags_and_job_number(api, importer):
    importer.set(config(SOFTWARE))
    resp = importer.run(invoice("SZ-1"))
    assert resp.status_code == 201
    income = resp.json()["income"]
    [row] = income["assignments"]
    assert row["revenue_type"]["name"] == "Szoftverlicenc"
    assert [t["name"] for t in row["tags"]] == ["Licenc", "Budapest"]
    assert row["job_number"] == "LIC-2026"
    assert (income["type"], income["source"]) == (1, "szamlazz.hu")


def test_income_without_assignments_gets_one_mirroring_its_totals(api, importer):
    resp = importer.run(invoice("SZ-2"))
    [row] = resp.json()["income"]["assignments"]
    assert (row["net_amount"], row["vat_amount"], row["gross_amount"]) == \
        ("1000.00", "270.00", "1270.00")
    assert row["vat"]["percent"] == 27.0
    assert resp.json()["policy"]["matched"] == []


def test_split_policy_divides_the_income_and_the_parts_add_up(api, importer):
    importer.set(config(EXPORT))
    body = invoice("EX-1", currency="EUR", exchange_rate="395.12", net_amount="333.33",
                   vat_amount="0.00", gross_amount="333.33", items=[],
                   partner={"name": "Beta GmbH"})
    income = importer.run(body).json()["income"]
    parts = income["assignments"]
    assert [p["revenue_type"]["name"] for p in parts] == ["Export", "Szolgáltatás"]
    assert [p["gross_amount"] for p in parts] == ["233.33", "100.00"]
    assert sum(Decimal(p["gross_amount"]) for p in parts) == Decimal(income["gross_amount"])
    assert sum(Decimal(p["net_amount"]) for p in parts) == Decimal(income["net_amount"])
    ledger = _names(api, "/2/accounting/ledger-numbers/")["Export árbevétel"]
    assert parts[1]["ledger_number_id"] == ledger["id"]


def test_ignore_rule_stores_nothing_and_names_the_rule(api, importer):
    importer.set(config(SOFTWARE, ignore=[TEST_INVOICES]))
    before = api.get("/1/incomes/").json()["count"]
    resp = importer.run(invoice("TEST-0001"))
    assert resp.status_code == 200
    assert resp.json()["ignored"] is True
    assert resp.json()["ignored_by"] == "Tesztszámlák"
    assert resp.json()["income"] is None
    assert api.get("/1/incomes/").json()["count"] == before
    assert "Szoftverlicenc" not in _names(api, "/2/revenue-types/")


def test_multiple_match_with_skip_applies_nothing_and_needs_review(api, importer):
    importer.set(config(SOFTWARE, BIG, skip=True))
    body = importer.run(invoice("SZ-3")).json()
    [row] = body["income"]["assignments"]
    assert row["revenue_type"] is None and row["tags"] == [] and row["job_number"] is None
    assert body["income"]["needs_review"] is True
    assert body["policy"]["skipped_multiple"] is True
    assert body["policy"]["matched"] == ["Szoftverlicenc bevételek", "Nagy összeg"]
    assert body["trace"] == [{"field": "matched", "policy_name": "Szoftverlicenc bevételek"},
                             {"field": "matched", "policy_name": "Nagy összeg"}]


def test_multiple_match_without_skip_applies_the_first(api, importer):
    importer.set(config(BIG, SOFTWARE))
    body = importer.run(invoice("SZ-4")).json()
    [row] = body["income"]["assignments"]
    assert row["revenue_type"]["name"] == "Nagy tétel"
    assert body["income"]["needs_review"] is False
    assert body["policy"]["applied"] == "Nagy összeg"


def test_named_records_are_created_once_and_reused(api, importer):
    importer.set(config(SOFTWARE))
    first = importer.run(invoice("SZ-5")).json()
    second = importer.run(invoice("SZ-6")).json()
    assert {k: [r["name"] for r in v] for k, v in first["policy"]["created"].items()} == \
        {"revenue_types": ["Szoftverlicenc"], "tags": ["Licenc"]}
    assert second["policy"]["created"] == {}
    assert second["income"]["assignments"][0]["revenue_type"] == \
        first["income"]["assignments"][0]["revenue_type"]
    types = [r for r in api.get("/2/revenue-types/").json() if r["name"] == "Szoftverlicenc"]
    assert len(types) == 1 and types[0]["is_external"] is False


def test_trace_records_which_policy_set_which_field(api, importer):
    importer.set(config(SOFTWARE))
    body = importer.run(invoice("SZ-7")).json()
    expected = [{"field": f, "policy_name": "Szoftverlicenc bevételek"}
                for f in ("revenue_type", "job_number", "tags")]
    assert body["trace"] == expected
    stored = api.get(f"/_sandbox/incomes/{body['income']['id']}/policy-trace/").json()
    assert stored == {"income_id": body["income"]["id"], "trace": expected}


def test_trace_of_another_companys_income_is_not_found(api, importer, make_company):
    income_id = importer.run(invoice("SZ-8")).json()["income"]["id"]
    other = make_company()
    resp = api.get(f"/_sandbox/incomes/{income_id}/policy-trace/", token=other.tokens["admin"])
    assert resp.status_code == 404


def test_import_links_a_customer_partner_by_tax_number(api, importer):
    first = importer.run(invoice("SZ-9")).json()["income"]
    second = importer.run(invoice("SZ-10")).json()["income"]
    assert first["partner_id"] == second["partner_id"] is not None
    partner = api.get(f"/1/partners/{first['partner_id']}/").json()
    assert (partner["tax_number"], partner["is_customer"]) == ("12345678242", True)


def test_reimporting_the_same_invoice_returns_existing_income_id(api, importer):
    income_id = importer.run(invoice("SZ-11")).json()["income"]["id"]
    resp = importer.run(invoice("SZ-11"))
    assert resp.status_code == 400
    assert resp.json()["existing_income_id"] == income_id


def test_import_needs_a_valid_token_and_write_permission(api, importer):
    assert api.post("/_sandbox/import-income/", json=invoice("SZ-12"),
                    token=None).status_code == 401
    assert importer.run(invoice("SZ-12"), token="viewer").status_code == 403


def test_invalid_body_answers_400_by_field(api, importer):
    resp = importer.run({"source": "manual", "currency": "XXX", "type": 2})
    assert resp.status_code == 400
    body = resp.json()
    assert {"source", "currency", "type", "invoice_number", "issued_at"} <= body.keys()


def test_broken_stored_configuration_imports_without_policies_for_review(make_company,
                                                                         sandbox_url):
    import requests

    company = make_company(income_policies={"v": 2, "policies": [{"set": {}}]})
    resp = requests.post(f"{sandbox_url}/_sandbox/import-income/", json=invoice("SZ-13"),
                         headers={"Authorization": f"Token {company.tokens['admin']}"},
                         timeout=10)
    assert resp.status_code == 201
    assert resp.json()["income"]["needs_review"] is True
    assert resp.json()["policy"]["review_reason"].startswith("income_policies")
