"""Every CSV export neutralises formula-shaped text (OWASP CSV injection) and keeps amounts numbers.

The lists with a CSV export are the incomes and the expenses (app/incomes/present.py,
app/expenses/present.py); the records are made through the sandbox's API, the file read back raw.
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from types import SimpleNamespace

import pytest
from flask_babel import force_locale

from tests.app.conftest import sign_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.expenses_helpers import row as expense_row
from tests.app.incomes_helpers import catalogue as income_catalogue

FORMULAS = ['=HYPERLINK("http://x","y")', "+1", "-1+2", "@SUM(A1)", "\t=1", "\r=1"]
LANGUAGES = {"hu": ";", "en": ","}


def _export(client, company, area: str, language: str) -> tuple[str, list[list[str]]]:
    sign_in(client, company)
    client.get(f"/lang/{language}")
    response = client.get(f"/c/{company.id}/{area}/export")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data().decode("utf-8-sig")
    return text, list(csv.reader(io.StringIO(text, newline=""), delimiter=LANGUAGES[language]))


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


REPORTS = ("vat",)  # exports of reports, not of a record list: checked below
# Lists whose exports are checked in test_list_exports.py (formula-shaped text included).
OTHER_LISTS = ("partners", "review", "salaries", "taxes")


def test_every_list_with_an_export_is_covered(app):
    exports = sorted(rule.endpoint for rule in app.url_map.iter_rules()
                     if rule.endpoint.endswith(".export") and "policy" not in rule.endpoint)
    assert exports == sorted(f"{area}.export" for area in (*AREAS, *REPORTS, *OTHER_LISTS))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_vat_report_neutralises_a_formula_shaped_category_name(app, language):
    """The VAT summary's rows go out through the same writer as the lists (app/exports.py):
    a category name the API gave as a formula stays text."""
    from app import exports
    from app.vat import present

    line = ["2026-03", "Bevétel", '=HYPERLINK("http://x","y")', Decimal("-10.5"), None, None,
            Decimal(2)]
    with app.test_request_context(f"/?lang={language}"), force_locale(language):
        page = SimpleNamespace(items=[line], lookups={})
        response = exports.download(present.export_header(), [page], lambda row, _l: row, {},
                                    "vat-2026-03")
        text = b"".join(response.response).decode("utf-8-sig")
    [_header, row] = list(csv.reader(io.StringIO(text), delimiter=LANGUAGES[language]))
    assert row[2] == '\'=HYPERLINK("http://x","y")'
    assert row[3] == ("-10,5" if language == "hu" else "-10.5")
