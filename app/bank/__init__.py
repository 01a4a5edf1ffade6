"""Bank: the company's accounts with their balances and the bank's transactions, each with the
expense it pays, filterable by day, amount, partner and matching (URLs under
/c/<company_id>/bank/). Read-only: the API has no operation that records a payment.

Modules: views (request -> response), forms (the URL filter), flow (the reads side by side, the
filtered rows and their page), present (account and transaction rows, totals).
"""
from __future__ import annotations

from flask import request, url_for

from app.auth import company_blueprint
from app.bank import views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/accounts/export", "export_accounts", views.export_accounts, ["GET"]),
    ("/transactions/export", "export_transactions", views.export_transactions, ["GET"]),
)
bp = company_blueprint("bank", __name__, url_prefix="/bank", routes=ROUTES)


@bp.context_processor
def _export() -> dict:
    return {"transactions_export_url": _transactions_export_url}


def _transactions_export_url() -> str:
    """The transactions' export link: the URL's filter, without its page (every row)."""
    keep = {key: value for key, value in request.args.items(multi=True) if key != "page"}
    return url_for("bank.export_transactions", **keep)
