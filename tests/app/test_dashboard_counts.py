"""Every dashboard card's number is the number of rows its link lists (all pages).

The data sits on both sides of every boundary a card draws: due dates before, on and after
yesterday, paid, partially paid and unpaid incomes, reviewed and waiting ones, paid and unpaid
expenses, and more rows than one list page holds.
"""
from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest

from app.numbers import company_today
from tests.app.conftest import sign_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.incomes_helpers import make_income, set_state
from tests.app.list_pages import listed

CARDS = ("needs_review", "unpaid", "overdue", "unpaid_expenses")
OVERDUE_MANY = 52  # more than a list page of 50
OPEN_EXPENSES = 105  # more than a page of /2/expenses at its largest (100)


def _day(offset: int) -> str:
    return (company_today() + timedelta(days=offset)).isoformat()


def _make_incomes(api) -> None:
    for n in range(OVERDUE_MANY):
        make_income(api, invoice_number=f"LATE-{n:03d}", due_at=_day(-2 - n % 40))
    for offset in (-1, 0, 1, 30):
        make_income(api, invoice_number=f"DUE{offset:+d}", due_at=_day(offset))
    make_income(api, invoice_number="PAID-LATE", due_at=_day(-5),
                payments=[{"amount": "1270.00"}])
    make_income(api, invoice_number="PART-LATE", due_at=_day(-5), payments=[{"amount": "10.00"}])
    make_income(api, invoice_number="VOID-LATE", due_at=_day(-5), is_cancelled=True)
    for number, done in (("REV-OPEN-1", False), ("REV-OPEN-2", False), ("REV-DONE", True)):
        created = make_income(api, invoice_number=number, due_at=_day(3))
        set_state(api, created["id"], needs_review=True, review_done=done)


def _make_expenses(api) -> None:
    ids = expense_catalogue(api)
    for n in range(OPEN_EXPENSES):
        make_expense(api, ids, invoice_number=f"OPEN-{n:03d}", paid_status=1 + 2 * (n % 2))
    for n in range(3):
        make_expense(api, ids, invoice_number=f"PAID-{n}", paid_status=2)


@pytest.fixture
def dashboard(client, company, api) -> str:
    """The dashboard over demo-like data, signed in."""
    _make_incomes(api)
    _make_expenses(api)
    sign_in(client, company)
    return client.get(f"/c/{company.id}/").get_data(as_text=True)


def card(page: str, key: str) -> tuple[int, str]:
    """(the card's number, its link)."""
    found = re.search(rf'<a [^>]*href="([^"]+)" id="stat-{key}">.*?class="stat__value">([^<]*)<',
                      page, re.S)
    assert found, key
    value = found.group(2).strip()
    assert value.isdigit(), f"{key} shows {value!r}"
    return int(value), html.unescape(found.group(1))


@pytest.mark.parametrize("key", CARDS)
def test_card_number_is_the_number_of_rows_its_link_lists(client, dashboard, key):
    number, link = card(dashboard, key)
    rows, _pages = listed(client, link)
    assert number == len(rows) and len(set(rows)) == len(rows)
    assert number > 0


def test_overdue_card_counts_live_incomes_not_fully_paid_due_before_today(client, dashboard):
    number, link = card(dashboard, "overdue")
    rows, _pages = listed(client, link)
    assert number == OVERDUE_MANY + 2  # partly paid is still owed; cancelled is not
    assert sorted(rows) == sorted([f"LATE-{n:03d}" for n in range(OVERDUE_MANY)] +
                                  ["DUE-1", "PART-LATE"])
    assert "tab=overdue" in link, "the card opens the Overdue tab, the overdue amount's list"


def test_unpaid_expenses_card_counts_past_one_upstream_page(client, dashboard):
    number, link = card(dashboard, "unpaid_expenses")
    rows, _pages = listed(client, link)
    assert number == OPEN_EXPENSES == len(rows)
