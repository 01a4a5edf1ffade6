"""The preview shows what the sandbox's import really does with the same policies."""
from __future__ import annotations

import json
import re
from io import BytesIO

import pytest

from app.numbers import company_today
from app.policies.editor.present import fetch_incomes, months_ago
from app.policies.engine import evaluate
from app.upstream.client import UpstreamClient
from tests.app.test_policy_editor_kit import Editor, config, policy
from tests.conftest import Api

ROW = re.compile(r'data-income="([^"]*)" data-state="([^"]*)" data-applied="([^"]*)" '
                 r'data-matched="([^"]*)"')
POLICIES = config(
    policy("Szoftver", value="Soft", revenue_type="Szoftverlicenc", tags=["Licenc"],
           job_number="LIC"),
    policy("EUR export", field="currency", op="equals", value="EUR", split=[
        {"percent": 70, "revenue_type": "Termék"}, {"percent": 30, "revenue_type": "Szolgáltatás",
                                                   "tags": ["Export"]}]),
    policy("Nagy", field="gross_amount", op="gte", value=1000000, revenue_type="Nagy tétel"),
    policy("Pontos", field="partner_name", op="equals", value="Pontos Bt.",
           split=[{"amount": 500, "job_number": "A"}, {"amount": 770, "job_number": "B"}]),
    ignore=[{"name": "Tesztszámlák", "conditions": [
        {"field": "invoice_number", "op": "starts_with", "value": "TESZT"}]}],
    skip=True)


def invoice(number, partner="Alpha Soft Kft.", net="1000.00", vat="270.00", **extra) -> dict:
    """An import body issued today."""
    gross = f"{float(net) + float(vat):.2f}"
    body = {"source": "szamlazz.hu", "invoice_number": number,
            "issued_at": company_today().isoformat(), "partner": {"name": partner},
            "net_amount": net, "vat_amount": vat, "gross_amount": gross,
            "items": [{"name": "Tétel", "unit_price": net, "vat_percent": 27}]}
    return {**body, **extra}


INVOICES = [
    invoice("SZ-1"),
    invoice("SZ-2", net="2000000.00", vat="540000.00"),
    invoice("EU-1", partner="Müller GmbH", vat="0.00", currency="EUR", exchange_rate="400",
            vat_area="EU", items=[{"name": "Gép", "unit_price": "1000.00", "vat_percent": 0}]),
    invoice("TESZT-1"),
    invoice("PB-1", partner="Pontos Bt."),
    invoice("PB-2", partner="Pontos Bt.", net="2000.00", vat="540.00"),
    invoice("X-1", partner="Más Kft."),
]


def _import(api_client, body) -> dict:
    response = api_client.post("/_sandbox/import-income/", json=body)
    assert response.status_code in (200, 201), response.text
    return response.json()


@pytest.fixture
def imported(sandbox_url, company, make_company, api):
    """The invoices imported raw into the test company and through the policies elsewhere."""
    other = make_company()
    other_api = Api(sandbox_url, other)
    response = other_api.patch(f"/2/company-info/update/{other.id}/",
                               json={"income_policies": POLICIES})
    assert response.status_code == 200
    for body in INVOICES:
        _import(api, body)
    return {body["invoice_number"]: _import(other_api, body) for body in INVOICES}


def _expected_state(result) -> str:
    policy_run = result["policy"]
    if result["ignored"]:
        return "ignored"
    if policy_run["skipped_multiple"]:
        return "skipped"
    if policy_run["needs_review"]:
        return "review"
    return "changed" if policy_run["applied"] else "none"


def test_preview_shows_what_the_import_applies(client, company, imported):
    editor = Editor(client, company)
    upload = {"file": (BytesIO(json.dumps(POLICIES).encode()), "policies.json")}
    assert editor.post("/import", upload, content_type="multipart/form-data").status_code == 303
    html = editor.html("/preview?months=1")
    rows = {number: (state, applied, matched) for number, state, applied, matched
            in ROW.findall(html)}
    assert set(rows) == set(imported)
    for number, result in imported.items():
        expected = (_expected_state(result), result["policy"]["applied"] or "",
                    "|".join(result["policy"]["matched"]))
        assert rows[number] == expected, number
    assert rows["SZ-1"][0] == "changed", "the raw income gets the policy's values"
    assert {state for state, _, _ in rows.values()} == {
        "changed", "skipped", "ignored", "review", "none"}


def _names(client, path) -> dict:
    return {item["id"]: item["name"] for item in client.get(path)}


def _assignment_view(rows, revenue_types=None, tags=None) -> list:
    """(revenue type name, gross, job number, tag names) per assignment."""
    return [(_name(row["revenue_type"], revenue_types), row["gross_amount"],
             row.get("job_number"), sorted(_name(tag, tags) for tag in row["tags"]))
            for row in rows]


def _name(value, table):
    """A reference's name: detail objects carry it, ids go through the table, names are it."""
    if isinstance(value, dict):
        return value["name"]
    return table.get(value) if isinstance(value, int) else value


def test_preview_evaluation_of_listed_incomes_equals_the_imported_assignments(
        sandbox_url, company, imported):
    client = UpstreamClient(sandbox_url, company.tokens["admin"], company.id)
    incomes, truncated = fetch_incomes(client, months_ago(company_today(), 1))
    assert not truncated
    codes = {item["id"]: item["code"] for item in client.get("/2/currencies/")}
    revenue_types, tags = _names(client, "/2/revenue-types/"), _names(client, "/2/tags/")
    checked = 0
    for income in incomes:
        result = imported[income["invoice_number"]]
        if result["ignored"]:
            continue
        outcome = evaluate(POLICIES, income, codes)
        expected = _assignment_view(result["income"]["assignments"])
        assert _assignment_view(outcome.assignments, revenue_types, tags) == expected, \
            income["invoice_number"]
        checked += 1
    assert checked == len(INVOICES) - 1


def test_a_policy_naming_existing_records_shows_no_change_where_they_are_already_set(
        client, company, api):
    named = config(policy("Szoftver", value="Soft", revenue_type="Szoftverlicenc",
                          tags=["Licenc"]))
    assert api.patch(f"/2/company-info/update/{company.id}/",
                     json={"income_policies": named}).status_code == 200
    _import(api, invoice("SZ-9"))
    html = Editor(client, company).html("/preview?months=1")
    assert ROW.search(html).groups() == ("SZ-9", "unchanged", "Szoftver", "Szoftver")
    assert "Already has these values." in html
