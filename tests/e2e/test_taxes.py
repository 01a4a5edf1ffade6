"""Taxes in the browser: create three in one go, edit one, delete two; the month totals follow."""
from __future__ import annotations

import re

import requests

ACCOUNT = "11784009-15490012"


def _total(page, month: str) -> int:
    """A month's total as shown (Hungarian forints, no decimals) as an integer."""
    text = page.inner_text(f'details[data-month="{month}"] .month__total')
    assert "," not in text, text
    return int(re.sub(r"\D", "", text))


def _fill_row(page, index: int, **values) -> None:
    for name, value in values.items():
        page.fill(f'[name="rows-{index}-{name}"]', value)


def _tick(page, *record_ids: int) -> None:
    for record_id in record_ids:
        page.check(f'tr[data-record-id="{record_id}"] input[name=ids]')


def _ids(sandbox_url: str, company) -> dict[str, int]:
    body = requests.get(f"{sandbox_url}/2/monthly-taxes/", params={"fields": "taxes"},
                        headers={"Authorization": f"Token {company.tokens['admin']}"},
                        timeout=10).json()
    return {tax["description"]: tax["id"] for month in body["monthly_taxes"]
            for tax in month["taxes"]}


def test_create_three_edit_one_delete_two_and_the_month_totals_follow(
        signed_in_page, company, sandbox_url, browser_log):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/taxes/new")
    _fill_row(page, 0, month="2024-03", amount="100 000", code="103", description="SZJA")
    _fill_row(page, 1, month="2024-03", amount="50 000", name="Helyi iparűzési adó",
              account_number=ACCOUNT, description="IPA")
    _fill_row(page, 2, month="2024-04", amount="30000", code="104", description="ÁFA")
    page.click(".form-bar button[type=submit]")
    page.wait_for_url(re.compile(rf"/c/{company.id}/taxes/\?open="))
    assert page.locator("#messages .alert--success").count() == 1
    assert (_total(page, "2024-03"), _total(page, "2024-04")) == (150_000, 30_000)
    ids = _ids(sandbox_url, company)

    _tick(page, ids["SZJA"])
    page.click("button[formaction$='/edit']")
    page.fill(f'[name="r-{ids["SZJA"]}-amount"]', "120000")
    page.click(".form-bar button[type=submit]")
    page.wait_for_url(re.compile(rf"/c/{company.id}/taxes/"))
    assert (_total(page, "2024-03"), _total(page, "2024-04")) == (170_000, 30_000)

    _tick(page, ids["IPA"], ids["ÁFA"])
    page.click("button[formaction$='/delete']")
    assert page.locator(".confirm-delete tbody tr").count() == 2
    page.click(".confirm-delete__actions button[type=submit]")
    page.wait_for_selector('details[data-month="2024-03"]')
    assert _total(page, "2024-03") == 120_000
    assert page.locator('details[data-month="2024-04"]').count() == 0
    assert int(re.sub(r"\D", "", page.inner_text(".months__foot .month__total"))) == 120_000
    browser_log.assert_clean()


def test_the_tag_pickers_summary_names_the_tags_as_they_are_ticked(signed_in_page, company,
                                                                    browser_log):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/taxes/new")
    picker = page.locator('details[data-picker]:has(input[name="rows-0-tags"])').first
    picker.locator("summary").click()
    boxes = picker.locator('input[type=checkbox][name="rows-0-tags"]')
    names = [boxes.nth(n).locator("xpath=..").inner_text().strip() for n in range(2)]
    boxes.nth(0).check()
    boxes.nth(1).check()
    names_shown = picker.locator("[data-picker-names]")
    assert names_shown.inner_text() == ", ".join(names)
    boxes.nth(0).uncheck()
    boxes.nth(1).uncheck()
    assert names_shown.inner_text() == "—"
    assert picker.locator("summary .visually-hidden").count() == 1, "the label stays for readers"
