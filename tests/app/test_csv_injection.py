"""Every CSV export neutralises formula-shaped text (OWASP CSV injection) and keeps amounts numbers.

The lists with a CSV export are the incomes and the expenses (app/incomes/present.py,
app/expenses/present.py); the VAT report and the partner statement are downloads too; every view
that calls app.exports.download must be covered here. The records are made through the
sandbox's API, the file read back raw over HTTP.
"""
from __future__ import annotations

import dis
import inspect

import pytest

from app import exports
from tests.app.conftest import sign_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.expenses_helpers import row as expense_row
from tests.app.incomes_helpers import catalogue as income_catalogue
from tests.app.list_pages import csv_rows
from tests.app.partner_support import currencies, new_partner
from tests.app.partner_support import expense as partner_expense
from tests.app.partner_support import income as partner_income
from tests.app.partner_support import rows as partner_rows
from tests.sandbox import expense_support

ecat = expense_support.ecat  # a fixture, found by name

FORMULAS = ['=HYPERLINK("http://x","y")', "+1", "-1+2", "@SUM(A1)", "\t=1", "\r=1"]
LANGUAGES = {"hu": ";", "en": ","}


def _export(client, company, area: str, language: str) -> tuple[str, list[list[str]]]:
    sign_in(client, company)
    client.get(f"/lang/{language}")
    response = client.get(f"/c/{company.id}/{area}/export")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data().decode("utf-8-sig")
    return text, csv_rows(text, LANGUAGES[language])


def _tag(api, name: str) -> int:
    response = api.post("/2/tags/create/", json={"name": name})
    assert response.status_code == 200, response.text
    return response.json()["id"]


def _make_incomes(api) -> None:
    ids = income_catalogue(api)
    tag = _tag(api, "@SUM(A1)")
    for number, formula in enumerate(FORMULAS):
        assignment = {"revenue_type": ids.revenue_types[0], "net_amount": "-1000.50",
                      "vat_amount": "-270.14", "gross_amount": "-1270.64", "vat": ids.vats[0],
                      "tags": [tag]}
        body = {"invoice_number": f"{formula}#{number}", "partner_name": formula,
                "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
                "due_at": "2025-03-20", "net_amount": "-1000.50", "vat_amount": "-270.14",
                "gross_amount": "-1270.64", "tags": [tag], "assignments": [assignment]}
        response = api.post("/2/incomes/create/", json=body)
        assert response.status_code == 201, response.text


def _make_expenses(api) -> None:
    ids = expense_catalogue(api)
    tag = _tag(api, "@SUM(A1)")
    for number, formula in enumerate(FORMULAS):
        make_expense(api, invoice_number=f"{formula}#{number}", partner_name=formula,
                     secondary_id=formula, tags=[tag],
                     assignments=[expense_row(ids, "-1000.50", "-270.14", "-1270.64")])


AREAS = {
    # area: (maker, text columns that carry the formulas, (net, vat, gross) columns, what the
    # sandbox stores of a text: the income API trims whitespace as DRF does, so "\t=1" is kept
    # as "=1" there; the expense fixture keeps the tab and the carriage return)
    "incomes": (_make_incomes, {"invoice": 0, "partner": 3, "tags": 15}, (8, 9, 10), str.strip),
    "expenses": (_make_expenses, {"invoice": 1, "partner": 2, "secondary": 16, "tags": 17},
                 (7, 8, 9), str),
}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("area", sorted(AREAS))
def test_formula_shaped_text_is_neutralised_and_negative_amounts_stay_numbers(
        client, company, api, area, language):
    maker, columns, amounts, stored = AREAS[area]
    maker(api)
    text, rows = _export(client, company, area, language)
    records = rows[1:]
    assert len(records) == len(FORMULAS)
    partners = sorted(record[columns["partner"]] for record in records)
    assert partners == sorted("'" + stored(formula) for formula in FORMULAS)
    for record in records:
        assert all(record[column][0] == "'" for column in columns.values()), record
    assert {record[columns["tags"]] for record in records} == {"'@SUM(A1)"}
    mark = "," if language == "hu" else "."
    expected = [value.replace(".", mark) for value in ("-1000.50", "-270.14", "-1270.64")]
    assert all([record[c] for c in amounts] == expected for record in records)
    separator = LANGUAGES[language]
    assert text.count(separator.join(expected)) == len(FORMULAS)
    assert '"\'=HYPERLINK(""http://x"",""y"")"' in text
    risky = {cell for record in rows for cell in record
             if cell.startswith(("=", "+", "-", "@", "\t", "\r"))}
    assert risky == set(expected)


# Downloads other than the record lists, each checked over HTTP below.
OTHER_DOWNLOADS = ("vat.export", "partners.statement")
# Lists whose exports are checked in test_list_exports.py (formula-shaped text included).
LIST_EXPORTS = ("bank.export_accounts", "bank.export_transactions", "partners.export",
                "review.export", "review.export_log", "salaries.export", "taxes.export")


def _calls_download(view) -> bool:
    """Whether a view function calls app.exports.download: the global `download` bound to it,
    or the global `exports` module's attribute `download` (not a client's .download)."""
    function = inspect.unwrap(view)
    found = function.__globals__
    steps = list(dis.get_instructions(function))
    for step, after in zip(steps, steps[1:] + [None], strict=True):
        if (step.opname == "LOAD_GLOBAL" and step.argval == "download"
                and found.get("download") is exports.download):
            return True
        if (step.opname == "LOAD_GLOBAL" and step.argval == "exports" and after is not None
                and after.argval == "download" and found.get("exports") is exports):
            return True
    return False


def test_every_export_is_covered(app):
    downloads = {endpoint for endpoint, view in app.view_functions.items()
                 if _calls_download(view)}
    exports_named = {rule.endpoint for rule in app.url_map.iter_rules()
                     if rule.endpoint.endswith(".export") and "policy" not in rule.endpoint
                     and "policies" not in rule.endpoint}
    covered = {*(f"{area}.export" for area in AREAS), *OTHER_DOWNLOADS, *LIST_EXPORTS}
    assert "partners.statement" in downloads, "the view inspection finds the statement"
    assert downloads | exports_named == covered


def _vat_category(api, name: str) -> int:
    response = api.post("/2/accounting/vat-categories/create/",
                        json={"name": name, "percent": 9})
    assert response.status_code == 200, response.text
    return response.json()["created_vat_categories"][0]["id"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_vat_report_neutralises_a_formula_shaped_category_name(client, company, api,
                                                                   language):
    """A VAT category named like a formula, on a March income, goes out of the VAT export as
    text; the income's negative amounts stay numbers."""
    ids = income_catalogue(api)
    vat = _vat_category(api, FORMULAS[0])
    assignment = {"revenue_type": ids.revenue_types[0], "net_amount": "-1000.50",
                  "vat_amount": "-90.05", "gross_amount": "-1090.55", "vat": vat}
    response = api.post("/2/incomes/create/", json={
        "invoice_number": "VAT-1", "partner_name": "Alfa Kft.", "issued_at": "2026-03-05",
        "fulfilled_at": "2026-03-05", "due_at": "2026-03-20", "net_amount": "-1000.50",
        "vat_amount": "-90.05", "gross_amount": "-1090.55", "assignments": [assignment]})
    assert response.status_code == 201, response.text
    sign_in(client, company)
    client.get(f"/lang/{language}")
    answer = client.get(f"/c/{company.id}/vat/export?period=2026-03")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    text = answer.get_data().decode("utf-8-sig")
    rows = csv_rows(text, LANGUAGES[language])
    [row] = [row for row in rows if "HYPERLINK" in row[2]]
    assert row[2].startswith("'" + FORMULAS[0]), row
    mark = "," if language == "hu" else "."
    assert row[3:5] == ["-1000.50".replace(".", mark), "-90.05".replace(".", mark)], row


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_partner_statement_neutralises_formula_shaped_invoice_numbers(
        client, company, api, ecat, language):
    partner = new_partner(api, "Képlet Kft.")
    huf = currencies(api)["HUF"]
    for number, formula in enumerate(FORMULAS):
        partner_income(api, partner, 10, "-1270.64", huf, invoice_number=f"{formula}#{number}")
    partner_expense(api, partner, 5, "500.00", invoice_number="@SUM(A1)",
                    assignments=partner_rows(ecat, "500.00"))
    sign_in(client, company)
    client.get(f"/lang/{language}")
    answer = client.get(f"/c/{company.id}/partners/{partner['id']}/statement")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    text = answer.get_data().decode("utf-8-sig")
    [_header, *records] = csv_rows(text, LANGUAGES[language])
    invoice, gross = 1, 5
    expected = {"'" + f"{formula}#{number}".strip() for number, formula in enumerate(FORMULAS)}
    assert {record[invoice] for record in records} == expected | {"'@SUM(A1)"}
    mark = "," if language == "hu" else "."
    assert {record[gross] for record in records} == {"-1270.64".replace(".", mark),
                                                     "500.00".replace(".", mark)}
