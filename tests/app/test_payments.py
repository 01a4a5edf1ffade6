"""Payments on records against the sandbox: the income and expense pages show the API's payment
history row for row with its totals, read in the detail's one call; the edit forms offer the
payment fields editable_fields allows (method, planned date, paid through) with their widgets,
send exactly those, and show a 400 on its field with the input kept."""
from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest

from tests.app.conftest import signed_in
from tests.app.incomes_helpers import (
    BrowserForm,
    catalogue,
    make_income,
    page_form,
    patches,
    set_state,
)
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle
from tests.sandbox.expense_support import make_expense

ecat = expense_support.ecat  # a fixture, found by name

ROW = re.compile(r'<tr class="payment-row" data-date="([^"]*)" data-amount="([^"]*)" '
                 r'data-currency="([^"]*)" data-method="([^"]*)">(.*?)</tr>', re.S)
TOTAL = re.compile(r'id="(total-paid|outstanding)" data-amount="([^"]*)">([^<]*)<')
EN = {"Accept-Language": "en"}
PAYMENTS = [{"paid_at": "2025-03-10", "amount": "500.00", "method": "transfer"},
            {"paid_at": "2025-03-20", "amount": "270.50", "method": "cash"}]


def _rows(html: str) -> list[tuple]:
    return [(day, Decimal(amount), currency, method, unescape(re.sub(r"<[^>]+>", "|", cells)))
            for day, amount, currency, method, cells in ROW.findall(html)]


def _totals(html: str) -> dict[str, Decimal]:
    return {key: Decimal(value) for key, value, _text in TOTAL.findall(html)}


def _income(api, **extra) -> dict:
    ids = catalogue(api)
    return make_income(api, type=2, invoice_number="PAY-1", issued_at="2025-03-01",
                       net_amount="1000.00", vat_amount="270.00", gross_amount="1270.00",
                       payments=PAYMENTS, paid_through="OTP", payment_method="transfer",
                       assignments=[{"revenue_type": ids.revenue_types[0],
                                     "net_amount": "1000.00", "vat_amount": "270.00",
                                     "gross_amount": "1270.00", "vat": ids.vats[0]}], **extra)


@pytest.fixture
def paid_expense(api, ecat) -> tuple[dict, dict]:
    """An expense paid in two bank transfers from an opened account: (expense, account)."""
    account = open_account(api, "OTP Főszámla")
    expense = make_expense(api, ecat, invoice_number="K-77", payment_method="transfer")
    settle(api, expense["id"], 3, date="2026-02-01")
    settle(api, expense["id"], 2, date="2026-02-15")
    return expense, account


def test_income_page_shows_every_payment_of_the_api_history_and_its_totals(client, company,
                                                                            api):
    created = _income(api)
    history = api.get(f"/1/incomes/{created['id']}/",
                      params={"fields": "payment_history"}).json()
    base = signed_in(client, company)
    html = client.get(f"{base}incomes/{created['id']}", headers=EN).get_data(as_text=True)
    rows = _rows(html)
    assert [(r[0], r[1], r[3]) for r in rows] == [
        (p["date"], Decimal(p["amount"]), p["method"]) for p in history["payment_history"]]
    assert {r[2] for r in rows} == {"HUF"}
    assert "Bank transfer" in rows[0][4] and "Cash" in rows[1][4] and "OTP" in rows[0][4]
    totals = _totals(html)
    assert totals["total-paid"] == Decimal(history["paid_amount"]) == Decimal("770.50")
    assert totals["outstanding"] == Decimal(history["unpaid_amount"]) == Decimal("499.50")


def test_expense_page_shows_the_api_history_with_account_and_a_link_to_the_bank(
        client, company, api, paid_expense, sandbox_log):
    expense, account = paid_expense
    history = api.get(f"/2/expenses/{expense['id']}/",
                      params={"fields": "payment_history"}).json()["payment_history"]
    base = signed_in(client, company)
    sandbox_log.reset()
    html = client.get(f"{base}expenses/{expense['id']}", headers=EN).get_data(as_text=True)
    rows = _rows(html)
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        (p["date"], Decimal(p["amount"]), p["currency"], p["method"]) for p in history]
    assert len(rows) == 2 and all("OTP Főszámla" in r[4] for r in rows)
    assert _totals(html) == {"total-paid": sum(Decimal(p["amount"]) for p in history),
                             "outstanding": Decimal(0)}
    assert sum(r[1] for r in rows) == Decimal("1270.00")
    reads = sandbox_log.entries(company_id=company.id, method="GET",
                                path=f"/2/expenses/{expense['id']}")
    assert [r["args"].get("fields") for r in reads] == [["payment_history"]]
    link = re.search(r'<a href="([^"]*/bank/[^"]*)"', html).group(1)
    bank = client.get(unescape(link), headers=EN).get_data(as_text=True)
    shown = re.findall(r'data-transaction-id="(\d+)"', bank)
    assert shown == [str(history[0]["id"])]


def test_an_unpaid_expense_shows_no_payments_and_its_gross_outstanding(client, company, api,
                                                                    ecat):
    expense = make_expense(api, ecat)
    base = signed_in(client, company)
    html = client.get(f"{base}expenses/{expense['id']}", headers=EN).get_data(as_text=True)
    assert 'id="no-payments"' in html and _rows(html) == []
    assert _totals(html) == {"total-paid": Decimal(0), "outstanding": Decimal("1270.00")}


def test_a_paid_expense_with_no_payment_listed_says_so_and_shows_no_total_paid(
        client, company, api, ecat):
    # Paid in cash, say: the sum of no payments (0 Ft) is not what was paid.
    expense = make_expense(api, ecat, paid_status=2, payment_method="cash")
    base = signed_in(client, company)
    html = client.get(f"{base}expenses/{expense['id']}", headers=EN).get_data(as_text=True)
    assert 'id="paid-unrecorded"' in html and 'id="no-payments"' not in html
    assert "Marked as paid; the accounting service lists no payment for it." in html
    assert _totals(html) == {"outstanding": Decimal(0)}


def test_income_form_offers_the_payment_fields_with_their_widgets(client, company, api):
    open_account(api, "OTP Főszámla")
    open_account(api, "Deviza", "11700024-00000098-00000000", currency="EUR")
    created = _income(api)
    assert {"payment_method", "planned_payment_date", "paid_through"} <= set(
        created["editable_fields"])
    base = signed_in(client, company)
    html = client.get(f"{base}incomes/{created['id']}/edit",
                      headers={"Accept-Language": "hu"}).get_data(as_text=True)
    method = re.search(r'<select[^>]*name="payment_method".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\w*)"', method) == ["", "transfer", "cash", "card", "cod"]
    assert "Átutalás" in method and "Készpénz" in method and "Bank transfer" not in method
    # A day field: text in the page's language (app/templating.py), not the browser's picker.
    assert re.search(r'<input[^>]*name="planned_payment_date"[^>]*data-day|'
                     r'<input[^>]*data-day[^>]*name="planned_payment_date"', html)
    paid = re.search(r'<select[^>]*name="paid_through".*?</select>', html, re.S).group(0)
    # The company's accounts in Hungarian order, then the stored value no account has.
    assert re.findall(r'value="([^"]*)"', paid) == ["", "Deviza", "OTP Főszámla", "OTP"]
    assert '<option selected value="OTP">OTP</option>' in paid


def test_setting_method_planned_date_and_account_sends_exactly_those(client, company, api,
                                                                      sandbox_log):
    open_account(api, "OTP Főszámla")
    created = _income(api)
    base = signed_in(client, company)
    path = f"{base}incomes/{created['id']}/edit"
    form = page_form(client, path)
    form.set("payment_method", "card").set("planned_payment_date", "2025-04-30")
    response = client.post(path, data=form.set("paid_through", "OTP Főszámla").data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert patches(sandbox_log, company.id) == [{
        "payment_method": "card", "planned_payment_date": "2025-04-30",
        "paid_through": "OTP Főszámla"}]
    after = api.get(f"/1/incomes/{created['id']}/").json()
    assert (after["payment_method"], after["planned_payment_date"], after["paid_through"]) == (
        "card", "2025-04-30", "OTP Főszámla")


def test_expense_form_offers_only_the_payment_fields_its_editable_fields_name(
        client, company, api, paid_expense, sandbox_log):
    expense, _account = paid_expense
    editable = set(api.get(f"/2/expenses/{expense['id']}/").json()["editable_fields"])
    assert "payment_method" in editable and not {"planned_payment_date", "account"} & editable
    base = signed_in(client, company)
    path = f"{base}expenses/{expense['id']}/edit"
    form = page_form(client, path)
    assert form.get("payment_method") == "transfer"
    assert form.get("planned_payment_date") is None and form.get("account") is None
    response = client.post(path, data=form.set("payment_method", "card").data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    sent = [e["body"] for e in sandbox_log.entries(company_id=company.id, method="PATCH")]
    assert sent == [{"payment_method": "card"}]
    assert api.get(f"/2/expenses/{expense['id']}/").json()["payment_method"] == "card"


def test_a_refused_payment_method_shows_on_its_field_with_the_input_kept(client, company, api,
                                                                          sandbox_log):
    created = _income(api)
    base = signed_in(client, company)
    path = f"{base}incomes/{created['id']}/edit"
    form = page_form(client, path)
    form.set("payment_method", "bitcoin").set("planned_payment_date", "2025-05-15")
    response = client.post(path, data=form.data(), headers=EN)
    assert response.status_code == 400
    assert patches(sandbox_log, company.id) == [{"payment_method": "bitcoin",
                                                 "planned_payment_date": "2025-05-15"}]
    html = response.get_data(as_text=True)
    again = BrowserForm(html)
    assert again.get("payment_method") == "bitcoin"
    assert again.get("planned_payment_date") == "May 15, 2025", "the same day, in English"
    error = re.search(r'<ul class="field__errors" id="payment_method-error"><li>([^<]+)</li>',
                      html)
    assert error and error.group(1).strip()
    assert 'id="planned_payment_date-error"' not in html
    after = api.get(f"/1/incomes/{created['id']}/").json()
    assert after["payment_method"] == "transfer" and after["planned_payment_date"] != "2025-05-15"


def test_a_processed_income_offers_no_payment_field_its_editable_fields_lack(client, company,
                                                                             api):
    created = _income(api)
    editable = set(set_state(api, created["id"], is_processed=True)["editable_fields"])
    assert not {"payment_method", "planned_payment_date", "paid_through"} & editable
    base = signed_in(client, company)
    form = page_form(client, f"{base}incomes/{created['id']}/edit")
    assert [form.get(name) for name in ("payment_method", "planned_payment_date",
                                        "paid_through")] == [None, None, None]
