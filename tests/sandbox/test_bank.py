"""Bank rules: transactions agree with the expenses' paid status, balances add up, read-only."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox.bank.seed import fee_days
from tests.conftest import Api
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle, transactions_of
from tests.sandbox.expense_support import assignment, make_expense

ecat = expense_support.ecat  # a fixture, found by name


def _total(rows: list[dict]) -> Decimal:
    return sum((Decimal(t["amount"]) for t in rows), Decimal(0))


def test_paid_expense_has_transactions_adding_up_to_its_gross(api, ecat):
    expense = make_expense(api, ecat, invoice_number="B-1", partner_name="Bank Partner Kft.",
                           due_at="2026-03-10", issued_at="2026-03-01")
    settle(api, expense["id"], 2)
    rows = transactions_of(api, expense["id"])
    assert _total(rows) == Decimal("1270.00")
    assert rows[0]["partner"] == "Bank Partner Kft." and rows[0]["invoice_number"] == "B-1"
    assert api.get(f"/2/expenses/{expense['id']}/").json()["paid_status"] == 2


def test_partially_paid_expense_has_less_than_its_gross(api, ecat):
    expense = make_expense(api, ecat)
    settle(api, expense["id"], 3)
    assert Decimal(0) < _total(transactions_of(api, expense["id"])) < Decimal("1270.00")


def test_partial_then_paid_adds_only_the_remainder(api, ecat):
    expense = make_expense(api, ecat)
    settle(api, expense["id"], 3, date="2026-02-01")
    settle(api, expense["id"], 2, date="2026-02-15")
    rows = transactions_of(api, expense["id"])
    assert len(rows) == 2 and _total(rows) == Decimal("1270.00")


def test_unpaid_expense_loses_its_transactions_and_empty_days_vanish(api, ecat):
    expense = make_expense(api, ecat)
    settle(api, expense["id"], 2, date="2026-01-05")
    settle(api, expense["id"], 1)
    assert transactions_of(api, expense["id"]) == []
    assert api.get("/1/payments/?date=2026-01-05").json() == []


def test_cash_expense_never_reaches_the_bank(api, ecat):
    expense = make_expense(api, ecat, payment_method="cash")
    body = settle(api, expense["id"], 2)
    assert body["paid_status"] == 2 and body["transactions"] == []


def test_expense_without_amount_keeps_its_status_but_has_no_transactions(api, ecat):
    expense = make_expense(api, ecat, assignments=[assignment(ecat, "0", "0", "0")])
    body = settle(api, expense["id"], 3)
    assert body["paid_status"] == 3 and body["transactions"] == []


def test_foreign_expense_without_its_currency_account_is_converted_on_the_main_one(api, ecat):
    main = open_account(api)
    expense = make_expense(api, ecat, currency=2, exchange_rate="400")
    settle(api, expense["id"], 2)
    balances = {a["id"]: a for a in api.get("/1/pulse/").json()["accounts"]}
    assert balances[main["id"]]["current_balance"] == "-508000.00"
    assert transactions_of(api, expense["id"])[0]["currency"] == "EUR"


def test_a_converted_payment_names_the_rate_it_was_converted_at(api, ecat):
    main = open_account(api)
    expense = make_expense(api, ecat, currency=2, exchange_rate="391.123457",
                           assignments=[assignment(ecat, "100", "27", "127")])
    settle(api, expense["id"], 2)
    paid = transactions_of(api, expense["id"])[0]
    assert paid["exchange_rate"] == "391.123457" and paid["amount"] == "127.00"
    balances = {a["id"]: a for a in api.get("/1/pulse/").json()["accounts"]}
    assert balances[main["id"]]["current_balance"] == "-49672.68"  # 127 x 391.123457


def test_expense_in_an_accounts_currency_is_paid_from_that_account(api, ecat):
    open_account(api)
    euro = open_account(api, "EUR", "11700024-00000098-00000000", currency="EUR",
                        opening_balance="1000", book_rate="400")
    expense = make_expense(api, ecat, currency=2, exchange_rate="400",
                           assignments=[assignment(ecat, "100", "27", "127")])
    settle(api, expense["id"], 2, date="2026-04-01")
    day = api.get("/1/payments/?date=2026-04-01").json()
    assert [d["account"] for d in day] == [euro["id"]]
    pulse = api.get("/1/pulse/").json()
    assert {a["current_balance"] for a in pulse["accounts"]} == {"0.00", "873.00"}
    assert pulse["summary"] == 873 * 400


def test_paying_without_any_account_opens_the_main_account(api, ecat):
    expense = make_expense(api, ecat)
    settle(api, expense["id"], 2)
    accounts = api.get("/1/accounts/").json()["results"]
    assert [a["name"] for a in accounts] == ["Főszámla"]


def test_bank_is_read_only(api):
    for path in ("/1/accounts/", "/1/payments/", "/1/pulse/"):
        assert api.post(path, json={}).status_code == 405


def test_viewer_reads_the_bank(api):
    assert api.get("/1/pulse/", token="viewer").status_code == 200


def test_bank_is_per_company(api, make_company, sandbox_url):
    open_account(api)
    other = Api(sandbox_url, make_company())
    assert other.get("/1/accounts/").json()["count"] == 0


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from((1, 2, 3)), min_size=1, max_size=5))
def test_any_sequence_of_statuses_leaves_transactions_agreeing(api, ecat, statuses):
    expense = make_expense(api, ecat)
    for status in statuses:
        settle(api, expense["id"], status)
    total = _total(transactions_of(api, expense["id"]))
    expected = {1: lambda t: t == 0, 2: lambda t: t == Decimal("1270.00"),
                3: lambda t: 0 < t < Decimal("1270.00")}[statuses[-1]]
    assert expected(total)



def test_an_unmatched_transaction_names_no_expense_and_lowers_the_balance(api):
    account = open_account(api, opening_balance="10000")
    resp = requests.post(f"{api.base}/_sandbox/bank/transactions/", timeout=10, json={
        "account_id": account["id"], "date": "2026-02-03", "amount": "1500.00",
        "partner": "OTP Bank Nyrt.", "invoice_number": ""})
    assert resp.status_code == 201, resp.text
    day = api.get("/1/payments/?date=2026-02-03").json()
    assert [t["expense_id"] for d in day for t in d["transactions"]] == [None]
    balance = api.get("/1/pulse/").json()["accounts"][0]["current_balance"]
    assert Decimal(balance) == Decimal("8500.00")


def test_an_unmatched_transaction_needs_a_day(api):
    account = open_account(api)
    resp = requests.post(f"{api.base}/_sandbox/bank/transactions/", timeout=10, json={
        "account_id": account["id"], "date": "tegnap", "amount": "1"})
    assert resp.status_code == 400 and "date" in resp.json()


@pytest.mark.parametrize("amount", ["sok", "NaN", "Infinity", True, [1]])
def test_an_unmatched_transaction_needs_a_finite_amount(api, amount):
    account = open_account(api)
    resp = requests.post(f"{api.base}/_sandbox/bank/transactions/", timeout=10, json={
        "account_id": account["id"], "date": "2026-02-03", "amount": amount})
    assert resp.status_code == 400
    assert resp.json() == {"amount": ["A decimal number is required."]}


def test_expense_payment_history_lists_the_transactions_that_paid_it(api, ecat):
    account = open_account(api)
    expense = make_expense(api, ecat, payment_method="transfer")
    settle(api, expense["id"], 3, date="2026-02-01")
    settle(api, expense["id"], 2, date="2026-02-15")
    body = api.get(f"/2/expenses/{expense['id']}/",
                   params={"fields": "payment_history"}).json()
    paid = transactions_of(api, expense["id"])
    # /1/payments lists the newest day first; the history runs oldest first.
    assert [(p["id"], p["amount"]) for p in body["payment_history"]] == sorted(
        (t["id"], t["amount"]) for t in paid)
    assert [p["date"] for p in body["payment_history"]] == ["2026-02-01", "2026-02-15"]
    assert {(p["currency"], p["method"], p["account"]) for p in body["payment_history"]} == {
        ("HUF", "transfer", account["id"])}


def test_expense_payment_history_only_when_asked_and_empty_when_unpaid(api, ecat):
    expense = make_expense(api, ecat)
    assert "payment_history" not in api.get(f"/2/expenses/{expense['id']}/").json()
    body = api.get(f"/2/expenses/{expense['id']}/",
                   params={"fields": "items,payment_history"}).json()
    assert body["payment_history"] == []


@given(st.dates(min_value=date(1901, 1, 1), max_value=date(9999, 12, 31)))
def test_demo_bank_fees_fall_on_three_consecutive_months(today):
    days = fee_days(today)
    assert days[0] == today.replace(day=1) and all(d.day == 1 for d in days)
    months = [d.year * 12 + d.month for d in days]
    assert months == [months[0] - back for back in range(3)]
