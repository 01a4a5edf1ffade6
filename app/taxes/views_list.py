"""The monthly list: months by payment month with totals, each month's records with detail."""
from __future__ import annotations

from flask import g, request
from flask_babel import gettext as _

from app.taxes import present, upstream
from app.taxes.filters import api_params, filter_form, is_filtered, query
from app.taxes.kinds import Kind
from app.templating import render
from app.upstream import ValidationError


def index(kind: Kind):
    """One listing call (fields=<kind>) plus the cached company currency."""
    form = filter_form(request.args)
    params = api_params(form)
    body, currency, problems = {}, None, []
    if params is not None:
        try:
            found = upstream.read(g.api, kind, params)
            body, currency = found["listing"], found["currency"]
        except ValidationError as exc:
            problems = exc.messages() or [_("The accounting service did not accept the filter.")]
    months = present.months(body, kind, set(request.args.get("open", "").split(",")) - {""})
    context = {"form": form, "months": months, "total": present.total(months),
               "currency": currency, "problems": problems, "filtered": is_filtered(form),
               "query": query(form), "here": request.full_path.rstrip("?")}
    status = 400 if params is None or problems else 200
    return render("taxes/index.html", "taxes/_months.html", **context), status
