"""The expense list and its CSV export."""
from __future__ import annotations

from datetime import date
from urllib.parse import parse_qs, urlsplit

from flask import g, request, url_for

from app.expenses import bp, upstream
from app.expenses import export as columns
from app.expenses.filters import api_params, filter_form, list_query, place_upstream, read_params
from app.expenses.rows import list_rows
from app.expenses.views_bulk import bulk_context
from app.exports import EXPORT_PAGE_SIZE, download, first_page_now
from app.forms.filters import filter_args
from app.htmx import is_htmx, render
from app.upstream import Page, ValidationError, catalog

RESYNC = "full_resync_required"


@bp.get("/")
def index():
    """Expenses filtered and paged as the URL says (one upstream call with a warm cache)."""
    form = filter_form(request.args)
    params = api_params(form, request.args)
    page, codes, problems, resync = _read(form, params)
    today = date.today().isoformat()
    context = {"form": form, "page": page, "codes": codes, "problems": problems,
               "rows": list_rows(page.items, codes, page.lookups, today),
               "resync": resync, "full_reload_url": full_reload_url(), "filtered":
               form.is_filtered(), "next_cursor": cursor_of(page.next),
               "prev_cursor": cursor_of(page.previous),
               "export_url": list_query(filter_args(request.args)).url(".export"),
               "fragment": is_htmx(), **bulk_context()}
    status = 400 if params is None or problems or form.errors or resync else 200
    return render("expenses/index.html", "expenses/_list.html", **context), status


def _read(form, params: dict | None) -> tuple:
    """(page, currency codes, problems, resync needed); a refused query leaves the page empty."""
    if params is None:
        return Page(items=[]), {}, [], False
    try:
        return (*upstream.list_page(g.api, params), [], False)
    except ValidationError as exc:
        if needs_resync(exc):
            return Page(items=[]), {}, [], True
        return Page(items=[]), {}, place_upstream(form, exc), False


@bp.get("/export")
def export():
    """The current filter as CSV or XLSX (?format=xlsx), every page (app/exports.py)."""
    params = read_params(request.args)
    if params is None:
        return index()
    params.update(cursor=None, page_size=EXPORT_PAGE_SIZE)
    try:
        pages = first_page_now(upstream.all_pages(g.api, params))
    except ValidationError:
        return index()
    codes = catalog.names(g.api, "currencies", "code")
    return download(columns.header(), pages, columns.row, codes, "expenses")


def needs_resync(error: ValidationError) -> bool:
    """True for the 400 that says updated_since is too old (a full reload is needed)."""
    codes = [error.extra.get("code"), *error.field_errors.get("code", [])]
    return RESYNC in codes or any("resync" in m for m in error.field_errors.get(
        "updated_since", []))


def full_reload_url() -> str:
    """The list with the same filters but without “changed since”: the full reload."""
    args = {k: v for k, v in request.args.items() if k not in ("since", "tz", "cursor")}
    return url_for(".index", **args)


def cursor_of(link: str | None) -> str | None:
    """The cursor inside an API `next`/`previous` link (the page builds its own links)."""
    values = parse_qs(urlsplit(link).query).get("cursor") if link else None
    return values[0] if values else None
