"""In the browser: an export runs in the page with its progress in rows, a Cancel that stops the
server's upstream reads, and a finished file saved under the plain link's name.

The live Bookdesk runs in this process, so the income export's page size is made small here and
a few incomes make several pages; the sandbox's latency injection keeps each page slow enough to
watch. Screenshots of the running progress go to tests/artifacts/ (360 and 1280 px).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.numbers import company_today
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import csv_rows

PAGE_SIZE = 3
LIST_PATH = "/1/incomes"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PANEL = "#export-progress"


@pytest.fixture
def small_pages(monkeypatch):
    """Income exports read PAGE_SIZE records a page (the live server shares this process)."""
    monkeypatch.setattr("app.incomes.views.EXPORT_PAGE_SIZE", PAGE_SIZE)


def _export_reads(sandbox_log, company) -> int:
    return sum(f"page_size={PAGE_SIZE}" in entry["query"] for entry in
               sandbox_log.entries(company_id=company.id, method="GET", path=LIST_PATH))


def _rows_shown(page) -> int:
    return page.eval_on_selector(f"{PANEL} progress", "bar => bar.value")


def test_xlsx_export_shows_its_progress_and_cancel_stops_the_upstream_reads(
        signed_in_page, company, api, small_pages, faults, sandbox_log):
    for number in range(18):  # six pages
        make_income(api, invoice_number=f"P-{number:03}")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/c/{company.id}/incomes/")
    faults.add(path=LIST_PATH + "*", method="GET", kind="latency", latency_ms=700)
    page.click("#export-xlsx")
    page.wait_for_function(f"() => document.querySelector('{PANEL} progress').value >= {PAGE_SIZE}")
    status = page.locator(f"{PANEL} [role=status]")
    assert re.fullmatch(r"(3|6|9|12) / 18 sor", status.inner_text()), status.inner_text()
    assert status.get_attribute("aria-live") == "polite"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "export-progress-1280.png"))
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(ARTIFACTS / "export-progress-360.png"))
    assert page.eval_on_selector(PANEL, "box => box.scrollWidth <= box.clientWidth + 1")
    page.click(f"{PANEL} [data-export-cancel]")
    page.wait_for_selector(f"{PANEL}[data-state=cancelled]")
    assert status.inner_text() == "Az export megszakítva."
    page.wait_for_timeout(1000)  # the page being read when the cancel came may still end
    reads = _export_reads(sandbox_log, company)
    page.wait_for_timeout(2100)  # three more page reads' worth, had it gone on
    assert _export_reads(sandbox_log, company) == reads < 6
    page.bookdesk_log.assert_clean()


def test_csv_export_that_completes_says_done_and_its_file_has_every_row(
        signed_in_page, company, api, small_pages):
    for number in range(7):
        make_income(api, invoice_number=f"P-{number:03}")
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/incomes/")
    with page.expect_download() as info:
        page.click("#export-csv")
    page.wait_for_selector(f"{PANEL}[data-state=done]")
    assert page.locator(f"{PANEL} [role=status]").inner_text() == "Az export elkészült: 7 sor."
    assert _rows_shown(page) == 7
    download = info.value
    # Named in the page's language, accents and all (exports.js reads the UTF-8 name).
    assert download.suggested_filename == f"bevételek-{company_today().isoformat()}.csv"
    text = Path(download.path()).read_text(encoding="utf-8-sig")
    rows = csv_rows(text, ";")[1:]
    assert sorted(row[0] for row in rows) == [f"P-{number:03}" for number in range(7)]
    page.bookdesk_log.assert_clean()
