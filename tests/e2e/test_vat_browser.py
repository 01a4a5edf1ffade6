"""The VAT summary in the browser: its cells equal the test's own sums of the API's records, a
cell's document count opens the documents behind it, the quarter button switches the period;
screenshots in English and Hungarian (tests/artifacts/)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from tests.app.test_vat_summary import books, ecat, expected  # noqa: F401 (fixtures, by name)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _cells(page) -> dict:
    found = {}
    for row in page.locator("#vat-summary tr.vat-cell").all():
        key = (row.get_attribute("data-side"), row.get_attribute("data-vat"))
        found[key] = [Decimal(row.get_attribute("data-net")),
                      Decimal(row.get_attribute("data-vat-amount"))]
    return found


def test_vat_summary_in_the_browser_equals_the_api_sums_and_opens_a_cell(
        signed_in_page, company, api, books, browser_log):  # noqa: F811
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/vat/?period=2026-03")
    assert _cells(page) == expected(api, date(2026, 3, 1), date(2026, 3, 31))
    first = page.locator("#vat-summary tr.vat-cell[data-side=incomes] a").first
    count = int(first.inner_text())
    first.click()
    page.locator("#vat-documents").wait_for()
    assert page.locator("#vat-documents tbody tr").count() == count
    page.locator(".vat-periods a[href$=\"period=2026-Q1\"]").click()
    page.wait_for_url("**period=2026-Q1**")
    assert _cells(page) == expected(api, date(2026, 1, 1), date(2026, 3, 31))
    browser_log.assert_clean()


def test_vat_summary_screenshots_in_english_and_hungarian(signed_in_page, company,
                                                          books):  # noqa: F811
    page = signed_in_page(company)
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("en", "hu"):
        page.goto(f"/lang/{lang}")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"/c/{company.id}/vat/?period=2026-03")
        page.locator("#vat-summary tr.vat-cell[data-side=incomes] a").first.click()
        page.locator("#vat-summary").wait_for()
        heading = page.locator("h1").inner_text()
        assert heading.startswith("ÁFA-összesítő" if lang == "hu" else "VAT summary"), heading
        page.screenshot(path=str(ARTIFACTS / f"vat-summary-{lang}.png"), full_page=True)
        page.goto(f"/c/{company.id}/vat/month-end?month=2026-03")
        page.locator("#month-end").wait_for()
        page.screenshot(path=str(ARTIFACTS / f"month-end-{lang}.png"), full_page=True)
