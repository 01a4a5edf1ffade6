"""In the browser, day fields follow the page's language, not the browser's: an English Chromium
shows a Hungarian page's days the Hungarian way, reads what is typed that way, and the URL it
makes reproduces the view."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.e2e.conftest import DEFAULT_TIMEOUT_MS, sign_in

ARTIFACTS = Path("tests/artifacts")


@pytest.fixture
def english_browser(browser, bookdesk_url):
    """A page of a Chromium whose own language is English (the harness's pages are hu-HU)."""
    context = browser.new_context(base_url=bookdesk_url, locale="en-US")
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_day_fields_follow_the_page_language_in_an_english_browser(english_browser, company):
    page = english_browser
    sign_in(page, company)
    assert page.evaluate("navigator.language") == "en-US"
    page.goto(f"/lang/hu?next=/c/{company.id}/incomes/%3Fdate_from%3D2024-03-05")
    assert page.get_attribute("html", "lang") == "hu"
    day = page.locator("#date_from")
    assert day.get_attribute("type") == "text" and day.get_attribute("lang") == "hu"
    assert day.input_value() == "2024. 03. 05."
    assert "2024. 03. 05." in day.get_attribute("placeholder")
    day.fill("2024. márc. 10.")
    day.press("Enter")
    page.wait_for_url(re.compile(r"date_from=2024\."))
    assert parse_qs(urlsplit(page.url).query)["date_from"] == ["2024. márc. 10."]
    assert "list-problems" not in page.content()
    page.goto(page.url)  # the copied URL shows the same day, in Hungarian again
    assert page.locator("#date_from").input_value() == "2024. márc. 10."
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "day-fields-hu-in-english-browser.png"))


def test_an_english_page_writes_days_in_english_in_a_hungarian_browser(signed_in_page, company):
    page = signed_in_page(company)
    assert page.evaluate("navigator.language") == "hu-HU"
    page.goto(f"/lang/en?next=/c/{company.id}/incomes/%3Fdate_from%3D2024-03-05")
    day = page.locator("#date_from")
    assert day.get_attribute("lang") == "en" and day.input_value() == "Mar 5, 2024"
