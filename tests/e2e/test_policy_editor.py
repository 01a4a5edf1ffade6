"""Browser checks of the income policy editor: build, preview, save; keyboard order; read-only."""
from __future__ import annotations

import contextlib
import re

import requests
from playwright.sync_api import Error as PlaywrightError

from app.numbers import company_today

# The reason is Bookdesk's own, in the page's language (app/auth/flow.py), not the API's text.
REFUSAL = "Only an administrator of this company can change this"


def _import(sandbox_url, company, number, partner):
    body = {"source": "szamlazz.hu", "invoice_number": number,
            "issued_at": company_today().isoformat(), "partner": {"name": partner},
            "net_amount": "1000.00", "vat_amount": "270.00", "gross_amount": "1270.00",
            "items": [{"name": "Licenc", "unit_price": "1000.00", "vat_percent": 27}]}
    response = requests.post(f"{sandbox_url}/_sandbox/import-income/", json=body, timeout=10,
                             headers={"Authorization": f"Token {company.tokens['admin']}"})
    assert response.status_code == 201, response.text


def _store(sandbox_url, company, policies):
    response = requests.patch(
        f"{sandbox_url}/2/company-info/update/{company.id}/", timeout=10,
        headers={"Authorization": f"Token {company.tokens['admin']}"},
        json={"income_policies": {"v": 2, "skip_for_multiple_match": False,
                                  "policies": policies, "ignore_policies": []}})
    assert response.status_code == 200, response.text


def _stored(sandbox_url, company):
    response = requests.get(f"{sandbox_url}/2/company-info/", timeout=10,
                            headers={"Authorization": f"Token {company.tokens['admin']}"})
    return response.json()["income_policies"]


def _policy(name, value):
    return {"name": name, "conditions": [{"field": "partner_name", "op": "contains",
                                          "value": value}], "set": {"job_number": name}}


def _wait_for_focus(page, element_id):
    """Wait until the element has the keyboard focus (set after htmx settles the swap)."""
    page.wait_for_function("id => document.activeElement && document.activeElement.id === id",
                           arg=element_id)


def _open_editor(page, company):
    page.goto(f"/lang/en?next=/c/{company.id}/policies/")
    page.wait_for_selector("#policy-editor")


def test_admin_adds_a_policy_previews_it_saves_and_finds_it_after_reload(
        signed_in_page, company, sandbox_url, browser_log):
    for number, partner in (("SZ-1", "Alpha Soft Kft."), ("SZ-2", "Beta Soft Zrt."),
                            ("M-1", "Más Kft.")):
        _import(sandbox_url, company, number, partner)
    page = signed_in_page(company)
    _open_editor(page, company)
    page.click("#add-policies")
    page.fill("#name", "Szoftver")
    page.fill("#conditions-0-value", "Soft")
    page.fill("#revenue_type", "Szoftverlicenc")
    page.press("#revenue_type", "Tab")
    page.wait_for_selector(".ref-field__note >> text=will be created")
    page.fill("#job_number", "LIC-1")
    page.click(".form-bar button[value=apply]")  # the change check and the apply race here
    page.wait_for_selector("#rule-policies-0 >> text=Szoftver")
    page.click(".draftbar >> text=Preview")
    page.wait_for_selector("#preview-results")
    applied = page.eval_on_selector_all(
        "tr[data-applied='Szoftver']", "rows => rows.map(r => r.dataset.income).sort()")
    assert applied == ["SZ-1", "SZ-2"]
    assert page.get_attribute("tr[data-income='M-1']", "data-state") == "none"
    assert "Szoftverlicenc" in page.inner_text("tr[data-income='SZ-1']")
    page.click("text=Review and save")
    assert "Rule Szoftver added." in page.inner_text(".change-summary")
    page.click("#save-policies")
    page.wait_for_selector(".alert--success")
    page.reload()
    assert "Szoftver" in page.inner_text("#rule-policies-0")
    assert page.locator(".draftbar").count() == 0
    saved = _stored(sandbox_url, company)["policies"][0]
    assert (saved["name"], saved["set"]["job_number"]) == ("Szoftver", "LIC-1")
    browser_log.assert_clean()


def test_keyboard_moves_a_rule_and_the_focus_follows_it(
        signed_in_page, company, sandbox_url, browser_log):
    _store(sandbox_url, company, [_policy("Első", "A"), _policy("Második", "B")])
    page = signed_in_page(company)
    _open_editor(page, company)
    page.focus("#duplicate-policies-0")
    page.keyboard.press("Alt+ArrowDown")
    page.wait_for_selector("#rule-policies-1 >> text=Első")
    _wait_for_focus(page, "move-up-policies-1")
    assert "Második" in page.inner_text("#rule-policies-0")
    page.keyboard.press("Alt+ArrowUp")
    page.wait_for_selector("#rule-policies-0 >> text=Első")
    _wait_for_focus(page, "move-down-policies-0")
    browser_log.assert_clean()


def test_bookkeeper_sees_the_editor_read_only_with_the_reason(
        signed_in_page, company, sandbox_url, browser_log):
    _store(sandbox_url, company, [_policy("Szoftver", "Soft")])
    page = signed_in_page(company, role="bookkeeper")
    _open_editor(page, company)
    page.click("#toggle-policies-0")
    page.wait_for_selector(".draftbar")
    page.click(".draftbar >> text=Review and save")
    page.click("#save-policies")
    page.wait_for_selector("#readonly-reason")
    assert REFUSAL in page.inner_text("#readonly-reason")
    page.reload()
    assert REFUSAL in page.inner_text("#readonly-reason")
    assert page.locator("#toggle-policies-0").count() == 0
    assert page.locator("#add-policies").count() == 0
    assert _stored(sandbox_url, company)["policies"][0].get("enabled", True) is True
    assert re.search(r"Szoftver", page.inner_text("#rule-policies-0"))
    browser_log.assert_clean()


def test_condition_row_offers_comparisons_that_suit_the_field_and_a_second_value_for_between(
        signed_in_page, company, browser_log):
    page = signed_in_page(company)
    page.goto(f"/lang/en?next=/c/{company.id}/policies/rule?section=policies")
    page.wait_for_selector("#conditions-0-op")
    assert page.input_value("#conditions-0-op") == "contains"
    page.select_option("#conditions-0-field", "gross_amount")
    assert page.input_value("#conditions-0-op") == "equals", "contains does not suit amounts"
    assert page.is_disabled("#conditions-0-op option[value=contains]")
    assert page.is_hidden("#conditions-0-value2")
    page.select_option("#conditions-0-op", "between")
    assert page.is_visible("#conditions-0-value2")
    page.fill("#conditions-0-value", "5000")
    page.fill("#conditions-0-value2", "1000")
    page.press("#conditions-0-value2", "Tab")
    page.wait_for_selector("text=Between needs two values, lowest first.")
    assert page.is_visible("#conditions-0-value2"), "still shown after the live check"
    browser_log.assert_clean()


def test_a_live_check_answering_late_does_not_take_back_a_later_change(
        signed_in_page, company, browser_log):
    page = signed_in_page(company)
    page.goto(f"/lang/en?next=/c/{company.id}/policies/rule?section=policies")
    page.wait_for_selector("#conditions-0-op")
    held = []

    def hold_the_first_check(route):
        if "op=check" in (route.request.post_data or "") and not held:
            held.append(route)  # answered below, once the user has changed the row again
        else:
            route.continue_()

    page.route("**/policies/rule**", hold_the_first_check)
    page.select_option("#conditions-0-field", "gross_amount")
    for _ in range(40):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the field change sent a check"
    page.select_option("#conditions-0-op", "between")
    with contextlib.suppress(PlaywrightError):  # the page gave that check up: the fix
        held[0].continue_()
    page.wait_for_timeout(600)
    page.wait_for_load_state("networkidle")
    assert page.input_value("#conditions-0-op") == "between"
    assert page.is_visible("#conditions-0-value2")
    browser_log.assert_clean()
