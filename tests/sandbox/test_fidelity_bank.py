"""Fidelity of the bank family to the live API: key sets and types of /1/accounts, /1/payments
and /1/pulse (from data/live-api-shapes.json), their filters, and the demo bank's consistency."""
from __future__ import annotations

from decimal import Decimal

import pytest
import requests

from sandbox.core.server import start
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle
from tests.sandbox.expense_support import make_expense
from tests.sandbox.live_shapes import bare_list_problems, live_response, shape_problems

DEMO = {"Authorization": "Token demo-admin"}

ecat = expense_support.ecat  # a fixture, found by name


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    """A demo sandbox over HTTP for this module."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("bank") / "demo.db"),
                        seed="demo")
    yield url
    server.shutdown()


def _get(url: str, path: str, **params):
    resp = requests.get(f"{url}{path}", params=params, headers=DEMO, timeout=30)
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_accounts_carry_every_live_key_with_its_type(demo_url):
    first = _get(demo_url, "/1/accounts/", page_size=1)
    # Page 1 has a next link, page 2 a previous one: together every key holds a value.
    first["previous"] = _get(demo_url, "/1/accounts/", page_size=1, page=2)["previous"]
    assert shape_problems(first, live_response("GET", "/1/accounts")) == []


def test_payments_carry_every_live_key_with_its_type(demo_url):
    assert bare_list_problems(_get(demo_url, "/1/payments/"), "GET", "/1/payments") == []


def test_pulse_carries_every_live_key_with_its_type(demo_url):
    assert shape_problems(_get(demo_url, "/1/pulse/"), live_response("GET", "/1/pulse")) == []


def test_accounts_name_filter_keeps_only_matching_accounts(api):
    open_account(api, "Főszámla")
    open_account(api, "Deviza EUR", "11700024-00000098-00000000", currency="EUR")
    found = api.get("/1/accounts/", params={"name": "deviza"}).json()
    assert [a["name"] for a in found["results"]] == ["Deviza EUR"]


def test_accounts_page_size_and_page_return_that_page(api):
    for n in range(3):
        open_account(api, f"Számla {n}", f"11700024-0000009{n}-00000000")
    second = api.get("/1/accounts/", params={"page": 2, "page_size": 2}).json()
    assert second["count"] == 3 and [a["name"] for a in second["results"]] == ["Számla 2"]


@pytest.fixture
def three_days(api, ecat):
    """Three expenses paid on 1, 10 and 20 March."""
    for day in ("2026-03-01", "2026-03-10", "2026-03-20"):
        settle(api, make_expense(api, ecat)["id"], 2, date=day)


@pytest.mark.parametrize(("params", "days"), [
    ({"date": "2026-03-10"}, ["2026-03-10"]),
    ({"from_date": "2026-03-10"}, ["2026-03-20", "2026-03-10"]),
    ({"to_date": "2026-03-10"}, ["2026-03-10", "2026-03-01"]),
    ({"from_date": "2026-03-02", "to_date": "2026-03-19"}, ["2026-03-10"]),
    ({"unknown": "x"}, ["2026-03-20", "2026-03-10", "2026-03-01"]),
])
def test_payments_date_filters_exclude_other_days(api, three_days, params, days):
    assert [d["date"] for d in api.get("/1/payments/", params=params).json()] == days


@pytest.mark.parametrize("name", ["date", "from_date", "to_date"])
def test_payments_malformed_date_is_the_invalid_date_400(api, name):
    resp = api.get("/1/payments/", params={name: "2026-3-1"})
    assert resp.status_code == 400 and name in resp.json()


def test_demo_transactions_agree_with_paid_status(demo_url):
    paid: dict[int, Decimal] = {}
    for day in _get(demo_url, "/1/payments/"):
        for t in day["transactions"]:
            if t["expense_id"] is None:  # a bank fee: matched to no expense
                continue
            paid[t["expense_id"]] = paid.get(t["expense_id"], Decimal(0)) + Decimal(t["amount"])
    assert len(paid) > 50
    for expense_id, total in sorted(paid.items())[:40]:
        expense = _get(demo_url, f"/2/expenses/{expense_id}/")
        gross = sum(Decimal(a["gross_amount"]) for a in expense["assignments"])
        assert expense["payment_method"] != "cash"
        assert (expense["paid_status"], total == gross) in ((2, True), (3, False))


def test_demo_unpaid_expenses_have_no_transactions(demo_url):
    paid = {t["expense_id"] for day in _get(demo_url, "/1/payments/")
            for t in day["transactions"]}
    unpaid = _get(demo_url, "/2/expenses/", is_paid="false", is_installment="false",
                  page_size=200)["results"]
    rows = unpaid["expenses"] if isinstance(unpaid, dict) else unpaid
    assert rows and not paid & {e["id"] for e in rows}


def test_demo_has_bank_fees_matched_to_no_expense(demo_url):
    fees = [t for day in _get(demo_url, "/1/payments/") for t in day["transactions"]
            if t["expense_id"] is None]
    assert fees and all(t["partner"] and Decimal(t["amount"]) > 0 for t in fees)


def test_demo_pulse_summary_adds_up_the_balances(demo_url):
    pulse = _get(demo_url, "/1/pulse/")
    assert all(Decimal(a["current_balance"]) > 0 for a in pulse["accounts"])
    assert {a["currency"] for a in pulse["accounts"]} == {"HUF", "EUR"}
    huf = sum(Decimal(a["current_balance"]) for a in pulse["accounts"] if a["currency"] == "HUF")
    eur = sum(Decimal(a["current_balance"]) for a in pulse["accounts"] if a["currency"] == "EUR")
    assert pulse["summary"] == int((huf + eur * Decimal("395.50")).to_integral_value())
