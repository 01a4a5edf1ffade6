"""The sandbox's days are Budapest days, as the live API's and Bookdesk's are: between midnight
in Budapest and midnight UTC, "today" is already the next day, whatever zone the machine runs in.
The clock is set to 2026-11-27 23:30 UTC, which is 00:30 on the 28th in Budapest."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sandbox.core import model
from tests.sandbox.expense_support import make_expense
from tests.sandbox.incomes_support import make_income

LATE_EVENING = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)


class _Clock(datetime):
    @classmethod
    def now(cls, tz=None):
        return LATE_EVENING.astimezone(tz)


@pytest.fixture
def late_evening(monkeypatch):
    """The sandbox (it runs in this process) sees 23:30 UTC on 27 November."""
    monkeypatch.setattr(model, "datetime", _Clock)


def _ids(api, path: str, key: str, **params) -> set[int]:
    body = api.get(path, params={"page_size": 100, **params}).json()
    return {row["id"] for row in body["results"][key]}


def test_an_income_made_with_the_default_dates_is_dated_the_budapest_day(api, late_evening):
    created = make_income(api, type=2)
    assert created["issued_at"] == created["fulfilled_at"] == created["due_at"] == "2026-11-28"


def test_an_income_due_on_the_27th_is_overdue_once_budapest_has_reached_the_28th(
        api, late_evening):
    due = make_income(api, type=2, due_at="2026-11-27", issued_at="2026-11-20")["id"]
    today = make_income(api, type=2, due_at="2026-11-28", issued_at="2026-11-20")["id"]
    assert api.get(f"/1/incomes/{due}/").json()["is_overdue"] is True
    assert due in _ids(api, "/1/incomes", "incomes", is_overdue="true")
    assert today in _ids(api, "/1/incomes", "incomes", is_overdue="false")


def test_an_expense_due_on_the_27th_is_expired_once_budapest_has_reached_the_28th(
        api, late_evening):
    due = make_expense(api, due_at="2026-11-27", issued_at="2026-11-20")["id"]
    today = make_expense(api, due_at="2026-11-28", issued_at="2026-11-20")["id"]
    assert due in _ids(api, "/2/expenses", "expenses", is_expired="true")
    assert today not in _ids(api, "/2/expenses", "expenses", is_expired="true")
