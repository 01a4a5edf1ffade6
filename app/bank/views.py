"""The bank page: request -> response. A plain GET renders the whole page, an htmx request
(the filter form, paging) only the transactions section, whose URL htmx pushes."""
from __future__ import annotations

from flask import g, request

from app.bank import flow
from app.bank.forms import parse
from app.templating import render


def index():
    """The accounts with their balances and the transactions the URL's filter keeps."""
    form, flt = parse(request.args)
    view = flow.bank_view(g.api, flt)
    status = 200 if flt is not None else 400
    return render("bank/index.html", "bank/_transactions.html", form=form, view=view,
                  filtered=form.is_filtered()), status
