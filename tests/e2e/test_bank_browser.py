"""The bank page in the browser: filtering to unmatched transactions swaps the table, pushes the
URL, and the copied URL shows the same rows; screenshots at phone and laptop width."""
from __future__ import annotations

import re
from pathlib import Path

from tests.app.test_bank_page import api_rows, bank, ecat  # noqa: F401 (fixtures, by name)
from tests.e2e.conftest import ARTIFACTS

ROWS = "#bank-transactions tbody tr"


def _shown(page) -> list[tuple[str, str]]:
    return [(row.get_attribute("data-transaction-id"), row.get_attribute("data-matched"))
            for row in page.locator(ROWS).all()]


def test_filtering_to_unmatched_shows_the_apis_unmatched_rows_and_a_url_that_reproduces_it(
        signed_in_page, company, api, bank, browser_log):  # noqa: F811
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/bank/")
    assert len(_shown(page)) == len(api_rows(api))
    page.select_option("#match", "unmatched")
    page.wait_for_url(re.compile(r"[?&]match=unmatched"))
    page.wait_for_function("document.querySelectorAll('#bank-transactions tbody tr').length == 2")
    expected = [(str(t["id"]), "false") for t in api_rows(api) if t["expense_id"] is None]
    assert _shown(page) == expected
    badges = page.locator(f"{ROWS} .badge").all_inner_texts()
    assert len(badges) == 2 and set(badges) <= {"Unmatched", "Párosítatlan"}, badges
    copied = page.url
    page.goto("about:blank")
    page.goto(copied)
    assert _shown(page) == expected and page.input_value("#match") == "unmatched"
    browser_log.assert_clean()


def test_bank_page_screenshots_at_phone_and_laptop_width(signed_in_page, company,
                                                         bank):  # noqa: F811
    page = signed_in_page(company)
    folder = Path(ARTIFACTS)
    folder.mkdir(exist_ok=True)
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/c/{company.id}/bank/")
        page.locator("#bank-transactions").wait_for()
        page.screenshot(path=str(folder / f"bank-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page scrolls sideways at {width} px"
