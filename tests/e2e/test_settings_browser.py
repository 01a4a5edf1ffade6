"""Settings in the browser: switching on enable_vat_period brings the VAT period fields onto
an income's edit form (/c/<id>/incomes/<income_id>/edit, field vat_period_type)."""
from __future__ import annotations

from tests.app.incomes_helpers import make_income


def test_enable_vat_period_shows_the_vat_period_fields_on_income_edit(signed_in_page, company,
                                                                       api, browser_log):
    income = make_income(api, invoice_number="ÁFA-1")
    page = signed_in_page(company)
    edit = f"/c/{company.id}/incomes/{income['id']}/edit"
    page.goto(edit)
    assert page.locator("[name=vat_period_type]").count() == 0
    page.goto(f"/c/{company.id}/settings/")
    page.check("#enable_vat_period")
    page.click(".settings-form button[type=submit]")
    page.wait_for_selector("#messages .alert--success")
    assert page.is_checked("#enable_vat_period")
    page.goto(edit)
    assert page.locator("[name=vat_period_type]").is_visible()
    assert page.locator("[name=vat_period_started_at]").is_visible()
    browser_log.assert_clean()
