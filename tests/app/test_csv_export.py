"""The CSV writer: text that a spreadsheet would run is neutralised, amounts stay bare numbers.

Pure checks of app/exports.py (the exports over HTTP are in test_csv_injection.py).
"""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.expenses import present as expense_columns
from app.exports import FORMULA_STARTS, amount, csv_chunks, neutralise
from app.incomes import present as income_columns
from app.upstream import Page
from tests.app.list_pages import csv_rows

DELIMITERS = {"hu": (";", ","), "en": (",", ".")}


@pytest.fixture
def in_request(app):
    """A request context per language (the writer picks separator and decimal mark by it)."""
    def enter(language: str):
        return app.test_request_context(headers={"Accept-Language": language})
    return enter


def _written(in_request, language: str, header, records, row) -> tuple[str, list[list[str]]]:
    with in_request(language):
        text = "".join(csv_chunks(header, [Page(items=records)], row, {}))
    separator = DELIMITERS[language][0]
    return text, csv_rows(text, separator)


@settings(max_examples=200)
@given(st.text())
def test_neutralised_text_never_starts_like_a_formula_and_keeps_its_content(text):
    result = neutralise(text)
    assert not result.startswith(FORMULA_STARTS)
    assert result == ("'" + text if text.startswith(FORMULA_STARTS) else text)


@pytest.mark.parametrize("text", ['=HYPERLINK("http://x","y")', "+1", "-1+2", "@SUM(A1)", "\t=1",
                                  "\r=1", "-5"])
def test_every_formula_start_of_owasp_is_neutralised(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("language", sorted(DELIMITERS))
# The app only gives a request context: nothing in it changes between examples.
@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cents=st.integers(min_value=-10**14, max_value=10**14), text=st.text())
def test_amounts_are_bare_numbers_and_text_is_quoted_and_neutralised(in_request, language,
                                                                     cents, text):
    value = Decimal(cents).scaleb(-2)
    raw, rows = _written(in_request, language, ["a", "b"], [{"n": str(value), "t": text}],
                         lambda record, _lookups: [amount(record["n"]), record["t"]])
    separator, mark = DELIMITERS[language]
    number = format(value, "f").replace(".", mark)
    assert rows[1] == [number, neutralise(text)]
    assert f"\r\n{number}{separator}\"" in raw


def test_amount_pads_to_cents_and_never_rounds_or_guesses():
    assert amount("-1270.5") == Decimal("-1270.50")
    assert amount("0.125") == Decimal("0.125")
    assert [amount(value) for value in (None, "", "abc", "NaN", "Infinity")] == [None] * 5


@pytest.mark.parametrize("formula", ["\t=1", "\r=1", "=1+1"])
def test_income_and_expense_rows_neutralise_text_the_api_may_send(in_request, formula):
    income = {"invoice_number": formula, "partner_name": formula, "partner_tax_number": formula,
              "gross_amount": "-5.00", "tags": []}
    expense = {"filing_number": formula, "invoice_number": formula, "partner_name": formula,
               "secondary_id": formula, "assignments": [{"gross_amount": "-5.00"}]}
    for columns, record, text_cells, gross in ((income_columns, income, (0, 3, 4), 10),
                                               (expense_columns, expense, (0, 1, 2, 16), 9)):
        _raw, rows = _written(in_request, "en", columns.export_header(), [record],
                              columns.export_row)
        assert all(rows[1][cell] == "'" + formula for cell in text_cells)
        assert rows[1][gross] == "-5.00"


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.from_regex(r"[0-9]{11}", fullmatch=True))
def test_an_income_rows_tax_number_is_written_as_the_list_shows_it(app, in_request, digits):
    income = {"invoice_number": "INC-1", "partner_tax_number": digits, "tags": []}
    _raw, rows = _written(in_request, "hu", income_columns.export_header(), [income],
                          income_columns.export_row)
    shown = app.jinja_env.filters["tax_number"](digits)
    assert rows[1][4] == shown == f"{digits[:8]}-{digits[8]}-{digits[9:]}"
