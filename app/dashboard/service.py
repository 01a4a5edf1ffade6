"""The dashboard's reads: the list behind each count card, the counts, the latest incomes and
their cancellation words, read side by side (no request objects here)."""
from __future__ import annotations

from datetime import date, timedelta
from functools import partial

from app.expenses.forms import list_query as expense_query
from app.forms.filters import ListQuery
from app.incomes.flow import reversed_numbers
from app.incomes.forms import list_query as income_query
from app.incomes.present import cancel_label, cancel_state
from app.review.forms import queue_query
from app.upstream import NeedsApiToken, NotFound, catalog, run_parallel
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api

RECENT_SIZE = 10
# /2/expenses is a cursor list without a count: one page of this size, "100+" beyond it.
EXPENSE_COUNT_CAP = 100
INCOME_CARDS = ("needs_review", "unpaid", "overdue")


def cards(today: date) -> dict[str, ListQuery]:
    """The list behind each count card: the card counts its rows and links to it."""
    yesterday = (today - timedelta(days=1)).isoformat()
    return {
        "needs_review": queue_query({}),
        "unpaid": income_query({"paid_status": "1"}),
        "overdue": income_query({"paid_status": "1", "date_field": "due_at",
                                 "date_to": yesterday}),
        "unpaid_expenses": expense_query({"is_paid": "false"}),
    }


def _or_none(call, *args, **kwargs):
    """The call's result, or None where the upstream lacks the list or does not take this
    sign-in's token for it (OAuth2 on /1/): the card says so."""
    try:
        return call(*args, **kwargs)
    except (NotFound, NeedsApiToken):
        return None


def _income_count(api, params: dict | None) -> int | None:
    if params is None:
        return None
    page = _or_none(income_api.list_page, api, {**params, "page": 1, "page_size": 1})
    return page.count if page else None


def _expense_count(api, params: dict | None) -> dict | None:
    if params is None:
        return None
    page = _or_none(expense_api.list_page, api, {**params, "page_size": EXPENSE_COUNT_CAP})
    return {"count": len(page.items), "more": bool(page.next)} if page else None


def _recent(api) -> list | None:
    page = _or_none(income_api.list_page, api,
                    {"page_size": RECENT_SIZE, "ordering": "-issued_at"})
    return page.items if page else None


def dashboard_data(api, queries: dict[str, ListQuery]) -> dict:
    """Run the dashboard's independent upstream reads side by side (each card's parameters
    read here, in the request: the list's reader needs its context)."""
    params = {key: query.params() for key, query in queries.items()}
    calls = {key: partial(_income_count, api, params[key]) for key in INCOME_CARDS}
    return run_parallel({
        **calls,
        "unpaid_expenses": partial(_expense_count, api, params["unpaid_expenses"]),
        "recent": lambda: _recent(api),
        "currencies": lambda: _or_none(catalog.names, api, "currencies", "code") or {},
    })


def cancel_labels(api, incomes: list[dict]) -> dict[int, str]:
    """Income id -> "Reversed" or "Cancelled" for the cancelled ones among incomes."""
    numbers = reversed_numbers(api, incomes)
    return {income["id"]: cancel_label(cancel_state(income, numbers)) for income in incomes
            if income.get("is_cancelled")}
