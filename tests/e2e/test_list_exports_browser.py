"""In the browser: the bank's transactions and the partner list, filtered through htmx, export
exactly the rows they show; the export buttons sit on the pages (screenshots in tests/artifacts)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.app.test_bank_page import bank, ecat  # noqa: F401 (fixtures, by name)
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_exports_browser import _downloaded_rows, _filter_by_htmx


def _screenshot(page, name: str) -> None:
    folder = Path(ARTIFACTS)
    folder.mkdir(exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_bank_transaction_export_after_an_htmx_filter_holds_the_rows_shown(
        signed_in_page, company, bank):  # noqa: F811
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/bank/")
    _screenshot(page, "bank-exports")
    _filter_by_htmx(page, "#match", "unmatched", r"match=unmatched")
    shown = page.locator("#bank-transactions tbody tr td:nth-child(3)").all_inner_texts()
    assert len(shown) == 2
    assert [row[2] for row in _downloaded_rows(page)] == shown
    page.bookdesk_log.assert_clean()


def test_partner_export_after_an_htmx_search_holds_the_rows_shown(signed_in_page, company,
                                                                 api):
    for name in ("Alfa Kft.", "Béta Bt.", "Alma Zrt."):
        api.post("/2/partners/create/", json={"name": name, "is_customer": True})
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/partners/")
    assert len(_downloaded_rows(page)) == 3
    page.evaluate("window.__notReloaded = true")
    page.fill("#partner-q", "Al")
    page.wait_for_url(re.compile(r"q=Al"))
    page.wait_for_function("document.querySelectorAll('#partner-list tbody tr').length == 2")
    shown = page.locator("#partner-list tbody tr td:first-child a").all_inner_texts()
    assert [row[0] for row in _downloaded_rows(page)] == shown
    _screenshot(page, "partners-exports")
    page.bookdesk_log.assert_clean()


def test_taxes_and_review_pages_show_their_export_buttons(signed_in_page, company):
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    for path in ("taxes/?paid=no", "review/"):
        page.goto(f"/c/{company.id}/{path}")
        link = page.locator("#export-csv")
        assert link.is_visible() and "/export" in link.get_attribute("href")
        _screenshot(page, path.split("/")[0] + "-exports")
