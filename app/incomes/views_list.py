"""The income list, its CSV export and the partner search behind every partner picker."""
from __future__ import annotations

from datetime import date

from flask import g, render_template, request
from flask_babel import gettext as _

from app.exports import EXPORT_PAGE_SIZE, download
from app.forms.filters import filter_args
from app.htmx import is_htmx, render
from app.incomes import bp, upstream
from app.incomes import export as columns
from app.incomes.filters import api_params, filter_form, list_query, read_params
from app.incomes.rows import list_rows
from app.upstream import Page, ValidationError, catalog


@bp.get("/")
def index():
    """Incomes filtered, sorted and paged as the URL says (one upstream call, warm cache)."""
    form = filter_form(request.args)
    params = api_params(form, request.args)
    page, codes, problems = Page(items=[], count=0), {}, []
    if params is not None:
        try:
            page, codes = upstream.list_page(g.api, params)
        except ValidationError as exc:
            problems = exc.messages() or [_("The accounting service did not accept the filter.")]
    if page.lookups.get("partners") and form.partner.data:
        form = filter_form(request.args, page.lookups["partners"].get(int(form.partner.data)))
    today = date.today().isoformat()
    rows = list_rows(page.items, codes, page.lookups.get("tags", {}), today,
                     upstream.reversed_numbers(g.api, page.items))
    context = {"form": form, "page": page, "rows": rows, "codes": codes, "problems": problems,
               "params": params or {}, "filtered": form.is_filtered(), "today": today,
               "export_url": list_query(filter_args(request.args)).url(".export"),
               "fragment": is_htmx()}
    status = 400 if params is None or problems else 200
    return render("incomes/index.html", "incomes/_list.html", **context), status


@bp.get("/export")
def export():
    """The current filter as CSV or XLSX (?format=xlsx), every page (app/exports.py)."""
    params = read_params(request.args)
    if params is None:
        return index()
    params.update(page=None, page_size=EXPORT_PAGE_SIZE)
    pages = g.api.iter_pages(upstream.LIST, params, resource="incomes")
    codes = catalog.names(g.api, "currencies", "code")
    return download(columns.header(), pages, columns.row, codes, "incomes")


@bp.get("/partners")
def partner_options():
    """<option>s of partners matching ?partner_q= (the partner pickers refill their select)."""
    text = (request.args.get("partner_q") or "").strip()
    partners = upstream.search_partners(g.api, text) if len(text) >= 2 else []
    return render_template("incomes/_partner_options.html", partners=partners, text=text)
