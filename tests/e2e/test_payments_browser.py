"""Payments on an expense in the browser: the detail shows the API's payment history with its
totals, the payment method is changed through the edit form and the API has it; a screenshot
of the detail is kept."""
from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from tests.e2e.conftest import ARTIFACTS
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle
from tests.sandbox.expense_support import make_expense

ecat = expense_support.ecat  # a fixture, found by name
ROWS = "#payments tbody tr"


def _history(api, expense_id: int) -> dict:
    return api.get(f"/2/expenses/{expense_id}/", params={"fields": "payment_history"}).json()


def test_expense_detail_shows_its_payments_and_the_payment_method_is_edited(
        signed_in_page, company, api, ecat, browser_log):
    open_account(api, "OTP Főszámla")
    expense = make_expense(api, ecat, invoice_number="PAY-E2E", payment_method="transfer")
    settle(api, expense["id"], 3, date="2026-02-01")
    settle(api, expense["id"], 2, date="2026-02-15")
    history = _history(api, expense["id"])["payment_history"]
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/expenses/{expense['id']}")
    rows = page.locator(ROWS)
    assert [(r.get_attribute("data-date"), Decimal(r.get_attribute("data-amount")))
            for r in rows.all()] == [(p["date"], Decimal(p["amount"])) for p in history]
    assert all("OTP Főszámla" in text for text in rows.all_inner_texts())
    paid = Decimal(page.get_attribute("#total-paid", "data-amount"))
    assert paid == sum(Decimal(p["amount"]) for p in history) == Decimal("1270.00")
    assert Decimal(page.get_attribute("#outstanding", "data-amount")) == 0
    folder = Path(ARTIFACTS)
    folder.mkdir(exist_ok=True)
    page.locator("#payments").scroll_into_view_if_needed()
    page.screenshot(path=str(folder / "expense-payment-history.png"), full_page=True)

    page.click("#edit-link")
    page.wait_for_url(re.compile(rf"/expenses/{expense['id']}/edit$"))
    assert page.locator("[name='planned_payment_date']").count() == 0
    page.select_option("#payment_method", "card")
    page.click("#save")
    page.wait_for_url(re.compile(rf"/expenses/{expense['id']}$"))
    after = _history(api, expense["id"])
    assert after["payment_method"] == "card"
    assert {r.get_attribute("data-method") for r in page.locator(ROWS).all()} == {"card"}
    browser_log.assert_clean()
