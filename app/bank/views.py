"""The bank page: request -> response. A plain GET renders the whole page, an htmx request
(the filter form, paging) only the transactions section, whose URL htmx pushes."""
from __future__ import annotations

from flask import g, request
from flask_babel import pgettext

from app.bank import flow, present
from app.bank.forms import parse
from app.exports import download
from app.templating import render
from app.upstream import Page


def index():
    """The accounts with their balances and the transactions the URL's filter keeps."""
    form, flt = parse(request.args)
    view = flow.bank_view(g.api, flt)
    status = 200 if flt is not None else 400
    return render("bank/index.html", "bank/_transactions.html", form=form, view=view,
                  filtered=form.is_filtered()), status


def export_accounts():
    """The accounts with their balances as CSV or XLSX (?format=xlsx)."""
    rows = flow.account_export(g.api)
    return download(present.accounts_header(), [Page(items=rows)], present.accounts_row, {},
                    pgettext("file name", "bank-accounts"))


def export_transactions():
    """The transactions the URL's filter keeps, every page of them, as CSV or XLSX."""
    _form, flt = parse(request.args)
    if flt is None:
        return index()
    rows = flow.transaction_export(g.api, flt)
    return download(present.transactions_header(), [Page(items=rows)],
                    present.transactions_row, {}, pgettext("file name", "bank-transactions"))
