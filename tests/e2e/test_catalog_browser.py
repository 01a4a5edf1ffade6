"""Catalogues in the browser: deleting a used and an unused tag in one go gives a report; the
question before it is the page's own dialog, in the page's language, and Cancel sends nothing."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.app.incomes_helpers import make_income


def test_delete_used_and_unused_tag_together_and_read_the_report(signed_in_page, company, api,
                                                                 browser_log):
    tags = {tag["name"]: tag["id"] for tag in api.get("/2/tags/").json()}
    make_income(api, tags=[tags["Budapest"]])
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/tags/")
    page.check(f"#select-{tags['Budapest']}")
    page.check(f"#select-{tags['Debrecen']}")
    page.click("button[form=delete-form]")
    page.locator("#confirm-dialog button[value=yes]").click()
    page.wait_for_selector("#delete-report")
    assert page.inner_text("#report-deleted").strip() == "Debrecen"
    kept = page.inner_text("#report-kept")
    assert "Budapest" in kept and "használatban van" in kept and "bevételek" in kept
    assert page.locator(f"#select-{tags['Debrecen']}").count() == 0
    assert page.locator(f"#select-{tags['Budapest']}").count() == 1
    browser_log.assert_clean()


def test_the_delete_question_is_the_pages_own_dialog_and_cancel_sends_nothing(
        signed_in_page, company, api, browser_log):
    tags = {tag["name"]: tag["id"] for tag in api.get("/2/tags/").json()}
    page = signed_in_page(company)
    native = []
    page.on("dialog", lambda dialog: native.append(dialog.message) or dialog.dismiss())
    page.goto(f"/lang/en?next=/c/{company.id}/tags/")
    page.check(f"#select-{tags['Debrecen']}")
    button = page.locator("button[form=delete-form]")
    button.click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".confirm-dialog__text")).to_have_text(button.get_attribute("data-confirm"))
    expect(dialog.locator("button")).to_have_text(["Yes", "Cancel"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("document.activeElement.getAttribute('form')") == "delete-form"
    page.goto(f"/lang/hu?next=/c/{company.id}/tags/")
    page.check(f"#select-{tags['Debrecen']}")
    button.click()
    expect(dialog.locator("button")).to_have_text(["Igen", "Mégse"])
    dialog.locator("button[value=no]").click()
    assert page.locator(f"#select-{tags['Debrecen']}").count() == 1
    assert tags["Debrecen"] in {tag["id"] for tag in api.get("/2/tags/").json()}
    assert not native
    browser_log.assert_clean()
