"""The company dashboard: the counts that matter, each linking to its list, and recent incomes."""
from __future__ import annotations

from datetime import date, timedelta
from functools import partial

from flask import Flask, g, render_template
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.nav import register_area
from app.upstream import NotFound, catalog, run_parallel

bp = company_blueprint("dashboard", __name__)

INCOMES = "/1/incomes"
RECENT_SIZE = 10
# The filters the sandbox (and the live service, as far as known) support on /1/incomes.
NEEDS_REVIEW = {"needs_review": "true", "review_done": "false"}
UNPAID = {"paid_status": 1}


def init_app(app: Flask) -> None:
    """Register the dashboard as the first navigation entry."""
    register_area(app, bp, _l("Overview"), "dashboard.index", order=0)


def _overdue_filter(today: date) -> dict:
    return {**UNPAID, "due_to": (today - timedelta(days=1)).isoformat()}


def counts_and_recent(api, today: date) -> dict:
    """Run the dashboard's independent reads side by side."""
    def count(params):
        page = _or_none(api.page, INCOMES, {**params, "page_size": 1})
        return page.count if page else None

    def recent():
        page = _or_none(api.page, INCOMES, {"page_size": RECENT_SIZE, "ordering": "-issued_at"})
        return page.items if page else None

    tasks = {
        "needs_review": partial(count, NEEDS_REVIEW),
        "unpaid": partial(count, UNPAID),
        "overdue": partial(count, _overdue_filter(today)),
        "recent": recent,
        "currencies": lambda: _or_none(catalog.names, api, "currencies", "code") or {},
    }
    return run_parallel(tasks)


def _or_none(call, *args):
    """The call's result, or None where the upstream lacks the list (the card says so)."""
    try:
        return call(*args)
    except NotFound:
        return None


def links(company_id: int, today: date) -> dict[str, str]:
    """Paths of the lists behind each count (DESIGN.md's fixed URLs; areas may land later)."""
    base = f"/c/{company_id}"
    overdue = _overdue_filter(today)
    return {
        "needs_review": f"{base}/review/",
        "unpaid": f"{base}/incomes/?paid_status=1",
        "overdue": f"{base}/incomes/?paid_status=1&due_to={overdue['due_to']}",
        "incomes": f"{base}/incomes/",
        "income": f"{base}/incomes/",
    }


@bp.get("/")
def index():
    """Counts of incomes needing review, unpaid and overdue, and the latest incomes."""
    today = date.today()
    data = counts_and_recent(g.api, today)
    return render_template(
        "dashboard/index.html",
        counts={key: data[key] for key in ("needs_review", "unpaid", "overdue")},
        recent=data["recent"],
        currencies=data["currencies"],
        links=links(g.company_id, today),
        today=today,
    )
