"""Partners in the browser: a Hungarian tax number is stored compact and shown with dashes, a
wrong one refused on its field; a colliding partner links to the existing one; no role is
refused before anything is sent; a search typed without accents finds accented names."""
from __future__ import annotations

import re
from pathlib import Path

SHOTS = Path(__file__).resolve().parents[1] / "artifacts"


def _new_partner(page, company, name: str, tax_number: str) -> None:
    page.goto(f"/c/{company.id}/partners/new")
    page.fill("#name", name)
    page.fill("#tax_number", tax_number)
    page.check("#is_vendor")
    page.click("form[data-partner-form] button[type=submit]")


def test_hungarian_tax_number_is_stored_compact_and_shown_with_dashes(signed_in_page, company,
                                                                      api, browser_log):
    page = signed_in_page(company)
    _new_partner(page, company, "Kötőjeles Kft.", "12345676 2 41")
    page.wait_for_url(re.compile(rf"/c/{company.id}/partners/\d+/$"))
    assert page.inner_text("#stored-tax-number") == "12345676-2-41"
    assert page.input_value("#tax_number") == "12345676-2-41"
    assert [p["tax_number"] for p in api.get("/1/partners/").json()["results"]] == [
        "12345676241"]
    browser_log.assert_clean()


def test_a_wrong_check_digit_is_refused_on_the_field(signed_in_page, company, sandbox_log):
    page = signed_in_page(company)
    sandbox_log.reset()
    _new_partner(page, company, "Elütött Kft.", "12345678-2-41")
    page.wait_for_selector("#tax_number[aria-invalid=true]")
    assert page.input_value("#tax_number") == "12345678-2-41"
    assert "check digit" in page.inner_text("form[data-partner-form]") or \
        "ellenőrző számjegye" in page.inner_text("form[data-partner-form]")
    assert sandbox_log.entries(company_id=company.id, method="POST") == []


def test_colliding_partner_links_to_the_existing_one(signed_in_page, company, api, browser_log):
    existing = api.post("/2/partners/create/", json={
        "name": "Eredeti Kft.", "tax_number": "11223346-1-05", "is_customer": True}).json()
    page = signed_in_page(company)
    _new_partner(page, company, "Másolat Kft.", "11223346-1-05")
    page.wait_for_selector("#collision")
    assert page.input_value("#name") == "Másolat Kft."
    page.click("#existing-partner-link")
    page.wait_for_url(re.compile(rf"/c/{company.id}/partners/{existing['id']}/$"))
    assert page.inner_text("h1") == "Eredeti Kft."
    assert api.get("/1/partners/").json()["count"] == 1
    # The re-rendered form answers 400, which Chromium logs as a failed resource.
    browser_log.console_errors[:] = [e for e in browser_log.console_errors
                                     if "status of 400" not in e]
    browser_log.assert_clean()


def test_a_partner_without_a_role_is_stopped_before_sending(signed_in_page, company,
                                                           sandbox_log):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/partners/new")
    page.fill("#name", "Szerep Nélkül Kft.")
    sandbox_log.reset()
    page.click("form[data-partner-form] button[type=submit]")
    assert page.evaluate("() => document.querySelector('#is_customer').validationMessage")
    assert page.url.endswith("/partners/new")
    assert sandbox_log.entries(company_id=company.id, method="POST") == []


def test_typing_a_name_without_accents_finds_the_accented_partner(signed_in_page, company, api,
                                                                  browser_log):
    for name in ("Kovács Kft.", "Nagy Zrt."):
        api.post("/2/partners/create/", json={"name": name, "is_customer": True})
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/partners/")
    page.fill("#partner-q", "kovacs")
    page.wait_for_url(re.compile(r"q=kovacs"))
    page.wait_for_function("() => !document.querySelector('#partner-list').innerText"
                           ".includes('Nagy Zrt.')")
    assert "Kovács Kft." in page.inner_text("#partner-list")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "partners-accent-blind-search.png"))
    browser_log.assert_clean()
