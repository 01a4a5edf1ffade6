"""The company dashboard page: the counts that matter, each linking to its list, and recent
incomes (the reads are in app/dashboard/service.py)."""
from __future__ import annotations

from datetime import date

from flask import g, render_template, url_for

from app.dashboard.service import INCOME_CARDS, cancel_labels, cards, dashboard_data
from app.forms.filters import ListQuery


def index():
    """Counts of incomes to review, unpaid and overdue, unpaid expenses; the latest incomes."""
    today = date.today()
    queries = cards(today)
    data = dashboard_data(g.api, queries)
    return render_template(
        "dashboard/index.html",
        counts={key: data[key] for key in INCOME_CARDS},
        expenses=data["unpaid_expenses"],
        recent=data["recent"],
        cancelled=cancel_labels(g.api, data["recent"] or []),
        currencies=data["currencies"],
        links=links(queries),
        today=today,
    )


def links(queries: dict[str, ListQuery]) -> dict[str, str]:
    """Each card's list URL (from its query), and the income list behind the recent table."""
    return {**{key: query.url() for key, query in queries.items()},
            "incomes": url_for("incomes.index"), "income": url_for("incomes.index")}
