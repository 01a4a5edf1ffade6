"""Browser test of the live totals on the Hungarian new-document form (app/forms/totals.py)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.app.incomes_helpers import catalogue, creates
from tests.app.test_totals import vat_id


def test_typing_net_fills_vat_and_gross_and_a_wrong_vat_is_flagged(signed_in_page, company, api,
                                                                   sandbox_log):
    ids = catalogue(api)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/incomes/new")
    assert page.locator("html").get_attribute("lang") == "hu"
    page.fill("#invoice_number", "ELO-1")
    page.select_option("#assignments-0-revenue_type", str(ids.revenue_types[0]))
    page.select_option("#assignments-0-vat", str(vat_id(api, "27%")))
    page.locator("#assignments-0-net_amount").press_sequentially("1 000", delay=30)
    expect(page.locator("#assignments-0-gross_amount")).to_have_value("1270,00")
    assert page.input_value("#assignments-0-vat_amount") == "270,00"
    assert page.input_value("#net_amount") == "1000,00"
    assert page.input_value("#gross_amount") == "1270,00"
    page.fill("#assignments-0-vat_amount", "300")
    page.wait_for_selector("#assignments-0-vat_amount-totals-error")
    assert "27%" in page.inner_text("#assignments-0-vat_amount-totals-error")
    assert page.input_value("#assignments-0-vat_amount") == "300"
    page.fill("#assignments-0-vat_amount", "")
    page.locator("#assignments-0-net_amount").press("End")
    page.locator("#assignments-0-net_amount").press_sequentially("0", delay=30)
    page.wait_for_selector("#assignments-0-net_amount-totals-error")  # "1 0000": refused
    page.fill("#assignments-0-net_amount", "10 000")
    expect(page.locator("#assignments-0-gross_amount")).to_have_value("12700,00")
    assert page.input_value("#assignments-0-vat_amount") == "2700,00"
    assert page.locator("#assignments-0-vat_amount-totals-error").count() == 0
    page.click("#create")
    page.wait_for_url(re.compile(r"/incomes/\d+"))
    [sent] = creates(sandbox_log, company.id)
    assert sent["body"]["assignments"][0]["vat_amount"] == "2700.00"
    assert sent["body"]["gross_amount"] == "12700.00"
    page.bookdesk_log.assert_clean()


def test_a_vat_cell_tabbed_into_before_the_answer_follows_net_and_the_save_goes_through(
        signed_in_page, company, api, sandbox_log):
    ids = catalogue(api)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/incomes/new")
    page.fill("#invoice_number", "TAB-1")
    page.select_option("#assignments-0-revenue_type", str(ids.revenue_types[0]))
    page.select_option("#assignments-0-vat", str(vat_id(api, "27%")))
    page.fill("#assignments-0-net_amount", "1000")
    expect(page.locator("#assignments-0-vat_amount")).to_have_value("270,00")
    page.fill("#assignments-0-net_amount", "2000")
    page.keyboard.press("Tab")  # in the VAT cell before the answer comes
    vat = page.locator("#assignments-0-vat_amount")
    expect(vat).to_be_focused()
    expect(vat).to_have_value("540,00")
    assert page.evaluate("(el) => el.selectionEnd - el.selectionStart", vat.element_handle()) \
        == len("540,00")
    expect(page.locator("#assignments-0-gross_amount")).to_have_value("2540,00")
    page.click("#create")
    page.wait_for_url(re.compile(r"/incomes/\d+"))
    [sent] = creates(sandbox_log, company.id)
    assert sent["body"]["assignments"][0]["vat_amount"] == "540.00"
    page.bookdesk_log.assert_clean()
