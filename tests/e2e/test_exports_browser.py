"""In the browser: filter a list through htmx, click Export CSV, and the file holds exactly the
rows the list shows (incomes and expenses)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import csv_rows

MARK = "window.__notReloaded = true"


def _downloaded_rows(page) -> list[list[str]]:
    with page.expect_download() as info:
        page.click("#export-csv")
    text = Path(info.value.path()).read_text(encoding="utf-8-sig")
    return csv_rows(text)[1:]


def _shown(page, area: str, link_cell: str) -> list[str]:
    return page.locator(f"#{area}-list tbody tr {link_cell} a").all_inner_texts()


def _filter_by_htmx(page, select: str, value: str, pattern: str) -> None:
    page.evaluate(MARK)
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        page.select_option(select, value)
    page.wait_for_url(re.compile(pattern))
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, "
                           ".htmx-swapping')")
    assert page.evaluate("window.__notReloaded === true"), "the filter reloaded the page"


def test_income_export_after_htmx_filters_holds_the_rows_shown(signed_in_page, company, api):
    for n in range(4):
        make_income(api, invoice_number=f"OPEN-{n}", type=2)
    make_income(api, invoice_number="PAID-1", type=2, payments=[{"amount": "1270.00"}])
    make_income(api, invoice_number="PAID-2", type=1, payments=[{"amount": "1270.00"}])
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/incomes/")
    assert len(_downloaded_rows(page)) == 6
    _filter_by_htmx(page, "#paid_status", "2", r"paid_status=2")
    shown = _shown(page, "income", "td.cell-number")
    assert sorted(shown) == ["PAID-1", "PAID-2"]
    assert [row[0] for row in _downloaded_rows(page)] == shown
    _filter_by_htmx(page, "#type", "1", r"type=1")
    assert _shown(page, "income", "td.cell-number") == ["PAID-2"]
    assert [row[0] for row in _downloaded_rows(page)] == ["PAID-2"]
    page.bookdesk_log.assert_clean()


def test_expense_export_after_an_htmx_filter_holds_the_rows_shown(signed_in_page, company, api):
    ids = expense_catalogue(api)
    for n in range(3):
        make_expense(api, ids, invoice_number=f"OPEN-{n}", paid_status=1)
    make_expense(api, ids, invoice_number="PAID-1", paid_status=2)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/")
    assert len(_downloaded_rows(page)) == 4
    _filter_by_htmx(page, "#is_paid", "true", r"is_paid=true")
    shown = page.locator("#expense-list .table--expenses tbody tr").evaluate_all(
        "rows => rows.map(r => r.querySelector('td.cell-numbers .cell-sub').innerText.trim())")
    assert shown == ["PAID-1"]
    assert [row[1] for row in _downloaded_rows(page)] == shown
    page.bookdesk_log.assert_clean()
