"""In the browser, day fields follow the page's language, not the browser's: an English Chromium
shows a Hungarian page's days the Hungarian way, reads what is typed that way, and the URL it
makes reproduces the view. File pickers name their button and the chosen files in the page's
language too."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from playwright.sync_api import expect

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


PICKERS = "input[type=date],input[type=month],input[type=datetime-local]"


def _taxes(sandbox_url: str, company, *months: str) -> None:
    response = requests.post(
        f"{sandbox_url}/2/taxes/create/", timeout=10,
        headers={"Authorization": f"Token {company.tokens['admin']}"},
        json=[{"month": month, "amount": "125000", "code": "103", "description": "SZJA"}
              for month in months])
    assert response.status_code == 201, response.text


def _shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=width == 360)


def test_months_and_date_times_follow_the_page_language_and_no_browser_picker_is_left(
        english_browser, company, sandbox_url):
    page = english_browser
    _taxes(sandbox_url, company, "2024-03", "2024-04")
    sign_in(page, company)
    assert page.evaluate("navigator.language") == "en-US"
    page.goto(f"/lang/hu?next=/c/{company.id}/taxes/%3Ffrom%3D2024-03")
    month = page.locator("#from")
    assert month.get_attribute("type") == "text" and month.get_attribute("lang") == "hu"
    assert month.input_value() == "2024. március"
    assert "2024. március" in month.get_attribute("placeholder")
    for path in ("taxes/", "salaries/", "taxes/new", "salaries/new", "expenses/"):
        page.goto(f"/c/{company.id}/{path}")
        assert page.evaluate(f"document.querySelectorAll('{PICKERS}').length") == 0, path
    page.goto(f"/c/{company.id}/salaries/new")
    assert re.fullmatch(r"\d{4}\. [a-zá-ű]+", page.input_value("[name=rows-0-month]"))
    due = page.locator("[name=rows-0-due_at]")
    assert due.get_attribute("type") == "text" and "2024. 03. 05." in due.get_attribute(
        "placeholder")

    page.goto(f"/c/{company.id}/taxes/")
    page.fill("#from", "2024. április")
    page.press("#from", "Enter")
    page.wait_for_url(re.compile(r"from=2024-04"))
    assert page.locator("details[data-month='2024-04']").count() == 1
    assert page.locator("details[data-month='2024-03']").count() == 0
    assert page.input_value("#from") == "2024. április"
    _shoot(page, "taxes-month-filter-hu")

    page.goto(f"/c/{company.id}/expenses/")
    since = page.locator("#since")
    assert since.get_attribute("type") == "text" and "2024. 03. 05. 14:30" in \
        since.get_attribute("placeholder")
    since.fill("2026. 11. 24. 14:30")
    since.press("Enter")
    page.wait_for_url(re.compile(r"since=2026-11-24T14%3A30"))
    assert page.input_value("#since") == "2026. 11. 24. 14:30"
    _shoot(page, "expense-since-filter-hu")
    page.goto(page.url)  # the copied URL shows the same moment, in Hungarian again
    assert page.input_value("#since") == "2026. 11. 24. 14:30"


def test_file_pickers_speak_the_page_language_in_an_english_browser(english_browser, company):
    page = english_browser
    sign_in(page, company)
    page.goto(f"/lang/hu?next=/c/{company.id}/incomes/new")
    picker = page.locator("[data-file-picker]")
    expect(picker).to_have_text(re.compile(r"^\s*Fájl kiválasztása\s+Nincs kiválasztott fájl\s*$"))
    assert page.locator("#invoice_image").evaluate("e => getComputedStyle(e).opacity") == "0"
    with page.expect_file_chooser() as chooser:
        picker.click()
    chooser.value.set_files([{"name": "szamla-11.pdf", "mimeType": "application/pdf",
                              "buffer": b"%PDF-1.4"}])
    expect(picker.locator(".filepick__names")).to_have_text("szamla-11.pdf")
    page.goto(f"/lang/en?next=/c/{company.id}/expenses/new")
    expect(page.locator("[data-file-picker]")).to_have_text(
        re.compile(r"^\s*Choose files\s+No file chosen\s*$"))
    for _ in range(40):
        if page.evaluate("document.activeElement.id") == "files":
            break
        page.keyboard.press("Tab")
    ring = page.locator(".filepick__button").evaluate("e => getComputedStyle(e).outlineStyle")
    assert page.evaluate("document.activeElement.id") == "files" and ring == "solid"


def test_without_javascript_the_browser_file_control_shows(browser, bookdesk_url, company):
    context = browser.new_context(base_url=bookdesk_url, java_script_enabled=False)
    page = context.new_page()
    sign_in(page, company)
    page.goto(f"/c/{company.id}/incomes/new")
    assert page.locator("#invoice_image").is_visible()
    assert page.locator("#invoice_image").evaluate("e => getComputedStyle(e).opacity") == "1"
    assert page.locator(".filepick__button").is_hidden()
    context.close()


def _messages_on_submit(page, form: str, fields: tuple[str, ...]) -> list[str]:
    return page.evaluate("""([form, fields]) => {
        document.querySelector(form).requestSubmit();
        return fields.map(f => document.querySelector(f).validationMessage);
    }""", [form, list(fields)])


def test_required_field_messages_follow_the_page_language_in_an_english_browser(
        english_browser, company):
    page = english_browser
    sign_in(page, company)
    page.goto(f"/lang/hu?next=/c/{company.id}/partners/new")
    assert _messages_on_submit(page, "form.partner-form", ("#name",)) == ["Kötelező mező."]
    page.fill("#name", "Próba Kft.")
    assert page.evaluate("document.querySelector('#name').validationMessage") == ""
    for box in ("#is_customer", "#is_vendor"):
        page.set_checked(box, False)
    roles = page.locator("form.partner-form").get_attribute("data-roles-message")
    assert _messages_on_submit(page, "form.partner-form", ("#is_customer",)) == [roles]
    page.goto(f"/lang/en?next=/c/{company.id}/policies/import")
    assert _messages_on_submit(page, "form.import-form", ("#file",)) == ["Choose a file."]
    page.goto(f"/lang/hu?next=/c/{company.id}/expenses/new")
    assert _messages_on_submit(page, "form.upload__form", ("#files",)) == ["Válasszon fájlt."]
