"""The company dashboard page: the counts that matter, each linking to its list, and recent
incomes (the reads are in app/dashboard/service.py); the practice page across the signed-in
companies (its reads in app/dashboard/practice.py)."""
from __future__ import annotations

from datetime import date

from flask import g, redirect, render_template, url_for

from app.auth import company_client, signed_in_companies
from app.dashboard.practice import queries as practice_queries
from app.dashboard.practice import rows as practice_rows
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


def practice():
    """One row per signed-in company (review queue, overdue, VAT due, unprocessed expenses),
    the rows read side by side, each with its company's own client."""
    companies = signed_in_companies()
    if not companies:
        return redirect(url_for("auth.login"))
    today = date.today()
    queries = practice_queries(today)
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
            "vat_due": to(queries["vat_incomes"]),
            "unprocessed": url_for("expenses.index", company_id=company_id)}
