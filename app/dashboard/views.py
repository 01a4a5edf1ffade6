"""The company dashboard page: the counts and amounts that matter, each linking to the list it
sums, the 12-month chart and recent incomes; the practice page across the signed-in companies
(the reads of both are in app/dashboard/service.py, what is shown of the amounts in
app/dashboard/present.py)."""
from __future__ import annotations

from datetime import date

from flask import g, redirect, render_template, url_for

from app.auth import company_client, signed_in_companies
from app.dashboard import present, service
from app.dashboard.service import (
    INCOME_CARDS,
    cancel_labels,
    cards,
    dashboard_data,
    practice_queries,
    practice_rows,
)
from app.forms.filters import ListQuery
from app.numbers import company_today, format_date
from app.vat.present import KIND_WORDS
from app.vat.service import period_of


def index():
    """Counts, amounts (month, year, open, overdue, VAT, taxes and salaries), chart, recent."""
    today = company_today()
    queries, found, dues = cards(), service.figures(today), service.dues(today)
    data = dashboard_data(g.api, queries, {**found, **service.chart_ranges(today)}, today, dues)
    period = period_of(data["period_kind"], today)
    figures = {**_figures(today, found, data), **present.vat_shown(
        service.vat_summary(data, period), url_for("vat.index", period=period.key))}
    return render_template("dashboard/index.html",
                           **_context(today, queries, figures, dues, data), period=period,
                           kind_words=KIND_WORDS)


def _figures(today: date, found: dict, data: dict) -> dict:
    """What each amount and chart cell shows, linked to its list."""
    figures = {key: present.shown(data[key], figure.amount, figure.query.url())
               for key, figure in found.items()}
    return {**figures, **chart_values(today, data)}


def _context(today: date, queries: dict, figures: dict, dues: dict, data: dict) -> dict:
    return {
        "counts": {key: data[key] for key in INCOME_CARDS},
        "expenses": service.unpaid_expense_count(data), "recent": data["recent"],
        "cancelled": cancel_labels(g.api, data["recent"] or []),
        "currencies": data["currencies"], "links": links(queries), "today": today,
        "figures": figures,
        "dues": {key: (data[key], url_for(f"{key}.index", **args))
                 for key, (_kind, args, _params) in dues.items()},
        "chart": chart(today, figures),
    }


def chart_values(today: date, data: dict) -> dict:
    """Each chart month's revenue and expense, linked to that month's own list."""
    values = {}
    for key, figure in service.chart_figures(today).items():
        range_key, month = key.rsplit("_", 1)
        totals = service.month_totals(data, range_key, month)
        values[key] = present.shown(totals, figure.amount, figure.query.url())
    return values


def chart(today: date, figures: dict) -> dict:
    """The chart's months (label, revenue, expense), bars and scale."""
    months = [(format_date(month.start, fmt="LLL yyyy"), figures[f"chart_in_{month.key}"],
               figures[f"chart_out_{month.key}"]) for month in service.chart_months(today)]
    bars, largest = present.bars(months)
    return {"months": months, "bars": bars, "largest": largest,
            "bar_width": present.bar_width(len(months)),
            "first": months[0][0], "last": months[-1][0]}


def links(queries: dict[str, ListQuery]) -> dict[str, str]:
    """Each card's list URL (from its query), and the income list behind the recent table."""
    return {**{key: query.url() for key, query in queries.items()},
            "incomes": url_for("incomes.index"), "income": url_for("incomes.index")}


def practice():
    """One row per signed-in company (review queue, overdue, VAT due, unprocessed expenses),
    every read of every row side by side, each with its company's own client."""
    companies = signed_in_companies()
    if not companies:
        return redirect(url_for("auth.login"))
    today = company_today()
    queries = practice_queries()
    params = {key: query.params() for key, query in queries.items()}
    clients = {item["id"]: company_client(item["id"]) for item in companies}
    return render_template("dashboard/practice.html", today=today,
                           rows=practice_rows(companies, clients, params, today),
                           links={item["id"]: practice_links(item["id"], queries)
                                  for item in companies})


def practice_links(company_id: int, queries: dict[str, ListQuery]) -> dict[str, str]:
    """Where a practice row's cells lead inside its company."""
    def to(query: ListQuery) -> str:
        return url_for(query.endpoint, company_id=company_id,
                       **query.multidict().to_dict(flat=False))
    return {"company": url_for("dashboard.index", company_id=company_id),
            "review": to(queries["review"]), "overdue": to(queries["overdue"]),
            "vat_due": url_for("vat.index", company_id=company_id),
            "unprocessed": url_for("vat.checklist", company_id=company_id, show="unprocessed")}
