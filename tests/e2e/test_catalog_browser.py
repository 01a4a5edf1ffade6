"""Catalogues in the browser: deleting a used and an unused tag in one go gives a report."""
from __future__ import annotations

from tests.app.incomes_helpers import make_income


def test_delete_used_and_unused_tag_together_and_read_the_report(signed_in_page, company, api,
                                                                 browser_log):
    tags = {tag["name"]: tag["id"] for tag in api.get("/2/tags/").json()}
    make_income(api, tags=[tags["Budapest"]])
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/tags/")
    page.check(f"#select-{tags['Budapest']}")
    page.check(f"#select-{tags['Debrecen']}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button[form=delete-form]")
    page.wait_for_selector("#delete-report")
    assert page.inner_text("#report-deleted").strip() == "Debrecen"
    kept = page.inner_text("#report-kept")
    assert "Budapest" in kept and "használatban van" in kept and "bevételek" in kept
    assert page.locator(f"#select-{tags['Debrecen']}").count() == 0
    assert page.locator(f"#select-{tags['Budapest']}").count() == 1
    browser_log.assert_clean()
