"""The company dashboard: the counts that matter, each linking to its list, and recent incomes."""
from __future__ import annotations

from datetime import date, timedelta
from urllib.parse import urlencode

from flask import Flask, g, render_template
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.incomes.labels import cancel_label, cancel_state
from app.incomes.upstream import reversed_numbers
from app.nav import register_area
from app.upstream import NotFound, catalog, run_parallel

bp = company_blueprint("dashboard", __name__)

INCOMES = "/1/incomes"
EXPENSES = "/2/expenses"
RECENT_SIZE = 10
# /2/expenses is a cursor list without a count: one page of this size, "100+" beyond it.
EXPENSE_COUNT_CAP = 100
NEEDS_REVIEW = {"needs_review": "true", "review_done": "false"}
UNPAID = {"paid_status": 1}
UNPAID_EXPENSES = {"is_paid": "false"}


def init_app(app: Flask) -> None:
    """Register the dashboard as the first navigation entry."""
    register_area(app, bp, _l("Overview"), "dashboard.index", order=0)


def overdue_filter(today: date) -> dict:
    """Unpaid incomes whose due date is before today (spec-style date_field/to_date filter)."""
    return {**UNPAID, "date_field": "due_at", "to_date": (today - timedelta(days=1)).isoformat()}


def _or_none(call, *args, **kwargs):
    """The call's result, or None where the upstream lacks the list (the card says so)."""
    try:
        return call(*args, **kwargs)
    except NotFound:
        return None


def _income_count(api, params: dict) -> int | None:
    page = _or_none(api.page, INCOMES, {**params, "page_size": 1})
    return page.count if page else None


def _expense_count(api) -> dict | None:
    page = _or_none(api.page, EXPENSES, {**UNPAID_EXPENSES, "page_size": EXPENSE_COUNT_CAP})
    return {"count": len(page.items), "more": bool(page.next)} if page else None


def _recent(api) -> list | None:
    page = _or_none(api.page, INCOMES, {"page_size": RECENT_SIZE, "ordering": "-issued_at"})
    return page.items if page else None


def dashboard_data(api, today: date) -> dict:
    """Run the dashboard's independent upstream reads side by side."""
    return run_parallel({
        "needs_review": lambda: _income_count(api, NEEDS_REVIEW),
        "unpaid": lambda: _income_count(api, UNPAID),
        "overdue": lambda: _income_count(api, overdue_filter(today)),
        "unpaid_expenses": lambda: _expense_count(api),
        "recent": lambda: _recent(api),
        "currencies": lambda: _or_none(catalog.names, api, "currencies", "code") or {},
    })


def links(company_id: int, today: date) -> dict[str, str]:
    """Paths of the lists behind each count: DESIGN.md's fixed URLs (areas may land later)."""
    base = f"/c/{company_id}"
    return {
        "needs_review": f"{base}/review/",
        "unpaid": f"{base}/incomes/?{urlencode(UNPAID)}",
        "overdue": f"{base}/incomes/?{urlencode(overdue_filter(today))}",
        "unpaid_expenses": f"{base}/expenses/?{urlencode(UNPAID_EXPENSES)}",
        "incomes": f"{base}/incomes/",
        "income": f"{base}/incomes/",
    }


def cancel_labels(api, incomes: list[dict]) -> dict[int, str]:
    """Income id -> "Reversed" or "Cancelled" for the cancelled ones among incomes."""
    numbers = reversed_numbers(api, incomes)
    return {income["id"]: cancel_label(cancel_state(income, numbers)) for income in incomes
            if income.get("is_cancelled")}


@bp.get("/")
def index():
    """Counts of incomes to review, unpaid and overdue, unpaid expenses; the latest incomes."""
    today = date.today()
    data = dashboard_data(g.api, today)
    return render_template(
        "dashboard/index.html",
        counts={key: data[key] for key in ("needs_review", "unpaid", "overdue")},
        expenses=data["unpaid_expenses"],
        recent=data["recent"],
        cancelled=cancel_labels(g.api, data["recent"] or []),
        currencies=data["currencies"],
        links=links(g.company_id, today),
        today=today,
    )
