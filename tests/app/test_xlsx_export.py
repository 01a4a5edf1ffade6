"""XLSX exports of the lists, and the streaming of both formats, over real HTTP.

An XLSX export opens with openpyxl; its amounts are numeric cells with a number format, its
dates are date cells, its headers are in the page's language; a CSV export that the client
stops reading stops the upstream reading too.
"""
from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.exports import write_xlsx
from app.numbers import AMOUNT_MAX
from tests.app import expenses_helpers
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import xlsx_rows

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _sheet(response) -> list[tuple]:
    assert response.status_code == 200 and response.mimetype == XLSX, response.status
    assert '.xlsx"; filename*=' in response.headers["Content-Disposition"]
    return xlsx_rows(response.get_data(), values_only=False)


def _income_rows(client, company, api, language: str) -> list[tuple]:
    make_income(api, invoice_number="X-1", partner_name="=Árvíztűrő Kft.", issued_at="2025-03-01",
                due_at="2025-03-09", net_amount="1000.50", gross_amount="1270.64")
    base = signed_in(client, company, "incomes/")
    return _sheet(client.get(base + "export?format=xlsx", headers={"Accept-Language": language}))


def test_xlsx_income_export_has_numeric_amounts_and_date_cells(client, company, api):
    header, line = _income_rows(client, company, api, "en")
    titles = [cell.value for cell in header]
    issued, gross = line[titles.index("Issue date")], line[titles.index("Gross amount")]
    assert issued.is_date and issued.value == datetime(2025, 3, 1)
    assert line[titles.index("Due date")].value == datetime(2025, 3, 9)
    assert gross.data_type == "n" and gross.value == 1270.64
    assert gross.number_format == "#,##0.00"  # an amount shows its two decimals, grouped
    rate, forints = line[titles.index("Exchange rate")], line[titles.index("Gross in forints")]
    assert rate.value == 1 and rate.number_format == "#,##0"
    assert forints.value == 1270.64 and forints.number_format == "#,##0.00"
    assert line[titles.index("Net amount")].value == 1000.5
    partner = line[titles.index("Partner")]
    assert partner.data_type == "s" and partner.value == "=Árvíztűrő Kft."


def test_xlsx_headers_are_hungarian_on_a_hungarian_page(client, company, api):
    header, line = _income_rows(client, company, api, "hu")
    titles = [cell.value for cell in header]
    assert titles[0] == "Számlaszám" and "Kiállítás dátuma" in titles
    assert line[0].value == "X-1"


def test_xlsx_headers_are_english_on_an_english_page(client, company, api):
    header, _line = _income_rows(client, company, api, "en")
    titles = [cell.value for cell in header]
    assert titles[0] == "Invoice number" and "Issue date" in titles
    assert "Számlaszám" not in titles


def test_xlsx_expense_export_follows_every_page_with_numbers(client, company, api, monkeypatch):
    ids = expenses_helpers.catalogue(api)
    for number in range(5):
        expenses_helpers.make_expense(api, ids, invoice_number=f"OPEN-{number}", paid_status=1,
                                      assignments=[expenses_helpers.row(ids, "100.00", "27.00",
                                                                        "127.00")])
    expenses_helpers.make_expense(api, ids, invoice_number="PAID-9", paid_status=2)
    monkeypatch.setattr("app.expenses.views.EXPORT_PAGE_SIZE", 2)
    base = signed_in(client, company, "expenses/")
    rows = _sheet(client.get(base + "export?is_paid=false&format=xlsx"))
    titles = [cell.value for cell in rows[0]]
    assert sorted(row[1].value for row in rows[1:]) == [f"OPEN-{n}" for n in range(5)]
    gross = [row[titles.index("Gross amount")] for row in rows[1:]]
    assert all(cell.data_type == "n" and cell.value == 127.0 for cell in gross)
    assert all(row[titles.index("Created")].is_date for row in rows[1:])


def test_csv_export_in_hungarian_keeps_bom_and_semicolons_while_streaming(client, company, api):
    make_income(api, invoice_number="CSV-HU", gross_amount="1270.64")
    base = signed_in(client, company, "incomes/")
    response = client.get(base + "export", headers={"Accept-Language": "hu"})
    assert response.is_streamed and response.mimetype == "text/csv"
    text = response.get_data().decode("utf-8")
    assert text.startswith("\ufeff\"Számlaszám\";") and "1270,64" in text


def test_a_stopped_csv_download_stops_reading_the_upstream_pages(client, company, api,
                                                                 sandbox_log, monkeypatch):
    for number in range(12):
        make_income(api, invoice_number=f"S-{number:02d}")
    monkeypatch.setattr("app.incomes.views.EXPORT_PAGE_SIZE", 2)
    base = signed_in(client, company, "incomes/")
    sandbox_log.reset()
    response = client.get(base + "export", buffered=False)
    chunks = iter(response.response)
    assert next(chunks).startswith("\ufeff".encode())
    next(chunks)  # the first page's rows
    response.close()
    listed = [e for e in sandbox_log.entries(company_id=company.id, method="GET")
              if e["path"].rstrip("/") == "/1/incomes"]
    assert 1 <= len(listed) <= 2, "six pages hold the twelve incomes; reading stopped early"
    full = client.get(base + "export").get_data().decode("utf-8")
    assert full.count("S-") == 12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.decimals(min_value=-AMOUNT_MAX, max_value=AMOUNT_MAX, places=2,
                            allow_nan=False, allow_infinity=False), min_size=1, max_size=60))
def test_xlsx_amounts_with_two_decimals_read_back_as_the_same_amount(amounts):
    target = io.BytesIO()
    write_xlsx(target, ["Amount"], [[value] for value in amounts])
    read = [Decimal(str(row[0])).quantize(Decimal("0.01")) for row in
            xlsx_rows(target.getvalue(), min_row=2)]
    assert read == amounts


def test_a_number_cell_shows_the_decimals_its_value_has():
    target = io.BytesIO()
    values = [Decimal(3), Decimal("1E+2"), Decimal("1270.64"), Decimal("358.113"),
              Decimal("1E-40")]
    write_xlsx(target, ["Number"], [[value] for value in values])
    cells = [row[0] for row in xlsx_rows(target.getvalue(), min_row=2, values_only=False)]
    assert [cell.number_format for cell in cells] == [
        "#,##0", "#,##0", "#,##0.00", "#,##0.000", "#,##0." + "0" * 30]  # XLSX shows 30 at most


@pytest.mark.parametrize(("language", "plain", "named"), [
    ("hu", "bevetelek-", "bev%C3%A9telek-"), ("en", "incomes-", "incomes-")])
def test_an_export_is_named_in_the_pages_language(client, company, api, language, plain, named):
    base = signed_in(client, company, "incomes/")
    for query in ("export", "export?format=xlsx"):
        disposition = client.get(base + query, headers={"Accept-Language": language}).headers[
            "Content-Disposition"]
        assert f'filename="{plain}' in disposition and f"filename*=UTF-8''{named}" in disposition
