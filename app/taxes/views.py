"""The taxes and salaries pages, request to response; each view takes its record kind first.

    index   the monthly list: months by payment month with totals, records with detail
    new     the create grid: several records in one request, checked first, sent once
    edit    the selected records' grid: one update request with only the changes
    delete  a confirmation page listing the selected records, then one delete request
The bulk pages act on the records sent as ?ids=... and return to the list they came from.
"""
from __future__ import annotations

from functools import partial

from flask import flash, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext, pgettext

from app.errors import lost_write_response
from app.exports import download
from app.forms.filters import place_upstream, small_int
from app.nav import safe_next
from app.numbers import company_today, parse_month
from app.once import (
    NOTHING_SENT,
    ExpiredKey,
    LostAnswer,
    Recovery,
    Sent,
    rate_limited_message,
    send_once,
)
from app.store import idempotency
from app.taxes import flow, present
from app.taxes.forms import api_params, filter_form, is_filtered, query
from app.taxes.present import Kind
from app.templating import push_machine_url, redirect_to, render
from app.upstream import RateLimited, Unavailable, ValidationError
from app.upstream import taxes as taxes_api
from app.upstream.parallel import once

MAX_SELECTED = 500


def index(kind: Kind):
    """One listing call (fields=<kind>) plus the cached company currency."""
    form = filter_form(request.args)
    params = api_params(form)
    body, currency, problems = {}, None, []
    if params is not None:
        try:
            found = flow.read(g.api, kind, params)
            body, currency = found["listing"], found["currency"]
        except ValidationError as exc:
            problems = place_upstream(form, exc, {"source": "source"})
            if not problems and not form.errors:
                problems = [_("The accounting service did not accept the filter.")]
    months = present.months(body, kind, set(request.args.get("open", "").split(",")) - {""})
    context = {"form": form, "months": months, "total": present.total(months),
               "currency": currency, "problems": problems, "filtered": is_filtered(form),
               "query": query(form), "here": request.full_path.rstrip("?"),
               "this_month": company_today().isoformat()[:7]}
    status = 400 if params is None or problems or form.errors else 200
    page = make_response(render("taxes/index.html", "taxes/_months.html", **context), status)
    return push_machine_url(page, context["query"])



def export(kind: Kind):
    """The list of the current filter as CSV or XLSX (?format=xlsx): the same listing call,
    every record of every month, in the page's order (app/exports.py)."""
    params = api_params(filter_form(request.args))
    if params is None:
        return index(kind)
    try:
        found = flow.read(g.api, kind, params)
    except ValidationError:
        return index(kind)
    shown = present.months(found["listing"], kind)
    return download(present.export_header(kind), present.export_pages(shown, found["currency"]),
                    partial(present.export_row, kind), {},
                    pgettext("file name", "salaries") if kind.is_salary
                    else pgettext("file name", "taxes"))

class _Unchecked(Exception):
    """The rows did not pass the checks made just before sending; nothing was sent."""


class _Unread(Exception):
    """The checks could not read what they compare with; nothing was sent."""


def new(kind: Kind):
    """GET: blank rows. POST: check, send every filled row at once, land on the list."""
    if request.method == "GET":
        rows, copied = _first_rows(kind)
        return _new_page(kind, rows, idempotency.new_key(), copied=copied)
    key = request.form.get("form_key") or idempotency.new_key()
    rows = flow.read_rows(request.form, kind)
    if request.form.get("op") == "more":
        return _new_page(kind, flow.with_more_rows(rows, kind), key)
    filled, noted = [row for row in rows if row.filled], {}
    try:
        # The checks run inside the send: after a lost answer the records they would
        # collide with may be this form's own, which the recovery looks for first.
        return send_once(key, kind.purpose, partial(_send, kind, filled, noted),
                         recover=_recovery(kind, filled, noted))
    except SEND_REFUSALS as exc:
        problems, status, key = _refusal(exc, filled, key)
    return _new_page(kind, rows, key, problems, status)


SEND_REFUSALS = (_Unchecked, _Unread, ExpiredKey, ValidationError, LostAnswer, RateLimited)


def _refusal(exc: Exception, filled: list, key: str) -> tuple[list, int, str]:
    """The grid's problems, status and form key after a send that did not go through."""
    if isinstance(exc, _Unchecked):
        return list(exc.args[0]), 400, key
    if isinstance(exc, _Unread):
        return [str(NOTHING_SENT)], 503, key
    if isinstance(exc, ExpiredKey):
        return [_("This form has expired. Send it again.")], 400, idempotency.new_key()
    if isinstance(exc, ValidationError):
        return flow.place(exc, filled), 400, key
    if isinstance(exc, LostAnswer):
        return [str(exc)], 503, key
    return [rate_limited_message(exc)], 429, key


def _first_rows(kind: Kind) -> tuple[list, int]:
    """Blank rows, or with ?copy=<month> the previous month's records for that month; and
    how many rows were copied."""
    try:
        month = parse_month(request.args.get("copy"))
    except ValueError:
        month = None
    if month is None:
        return flow.blank_rows(kind), 0
    rows = flow.copied_rows(g.api, kind, month)
    if not rows:
        flash(_("The previous month has no records to copy."), "info")
    extra = flow.blank_rows(kind, 1, len(rows))
    extra[0].raw["month"] = month.isoformat()[:7]
    return rows + extra, len(rows)


def _recovery(kind: Kind, rows: list, noted: dict) -> Recovery:
    """A lost grid is found when every row sent is in its month's listing (all or nothing)."""
    items = [flow.payload(row) for row in rows]
    here = url_for(".index", open=",".join(sorted({str(i.get("month"))[:7] for i in items})))

    def find(since, known) -> str | None:
        return here if items and flow.all_stored(g.api, kind, items, known) else None

    def existing(exc: ValidationError) -> str | None:
        return here if kind.is_salary and flow.every_row_exists(exc, len(items)) else None

    found = (_("The accounting service did not confirm the request, but the salaries were created.")
             if kind.is_salary else
             _("The accounting service did not confirm the request, but the taxes were created."))
    return Recovery(find, existing, known=lambda: noted.get("twins", frozenset()), found=found)


def _send(kind: Kind, rows: list, noted: dict) -> Sent:
    """Check the grid, note its twins (for a lost answer's read-back), then create it."""
    items = [flow.payload(row) for row in rows]
    listing = once(lambda: flow.records_in_months(g.api, kind, [r.values["month"] for r in rows]))
    try:
        problems = flow.check_new(rows, kind, listing)
        if not problems and not any(row.has_errors for row in rows):
            noted["twins"] = flow.twins(items, listing())
    except (Unavailable, RateLimited):
        raise _Unread() from None
    if problems or any(row.has_errors for row in rows):
        raise _Unchecked(problems)
    body = taxes_api.create(g.api, kind.name, items)
    months = sorted({str(row.values["month"])[:7] for row in rows})
    count = flow.created_count(body, kind) or len(rows)
    message = (ngettext("%(num)d salary was created.", "%(num)d salaries were created.", count)
               if kind.is_salary else
               ngettext("%(num)d tax was created.", "%(num)d taxes were created.", count))
    return Sent(url_for(".index", open=",".join(months)), message)


def _new_page(kind: Kind, rows: list, key: str, problems=(), status: int = 200,
              copied: int = 0):
    found = flow.form_data(g.api)
    return render_template("taxes/new.html", rows=rows, form_key=key, problems=list(problems),
                           tags=found["tags"], currency=found["currency"], copied=copied,
                           prefix=flow.new_prefix, template_row=flow.template_row(kind)), status


def edit(kind: Kind):
    """GET: the selected records' grid. POST: check, send the changed rows, back to the list."""
    ids = selected_ids()
    if not ids:
        return nothing_selected()
    found = flow.read(g.api, kind, tags=True)
    records = present.selected(found["listing"], kind, ids)
    if not records:
        flash(_("The selected records no longer exist."), "warning")
        return redirect_to(back_url())
    if request.method == "GET":
        return _edit_page(kind, flow.rows_for(records, kind), found)
    rows = flow.rows_for(records, kind, request.form)
    flow.check_edited(rows, kind, taxes_api.records(found["listing"], kind.name))
    if any(row.has_errors for row in rows):
        return _edit_page(kind, rows, found, status=400)
    return _save_changes(kind, rows, found)


def _save_changes(kind: Kind, rows: list, found: dict):
    changed = [(row, item) for row in rows if (item := flow.changes(row))]
    if not changed:
        flash(_("Nothing was changed."), "info")
        return redirect_to(back_url())
    try:
        taxes_api.update(g.api, kind.name, [item for _row, item in changed])
    except ValidationError as exc:
        problems = flow.place(exc, [row for row, _item in changed])
        return _edit_page(kind, rows, found, problems, 400)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _edit_page(kind, rows, found, [text])[0], exc)
    flash(ngettext("%(num)d record was saved.", "%(num)d records were saved.", len(changed)),
          "success")
    return redirect_to(back_url())


def _edit_page(kind: Kind, rows: list, found: dict, problems=(), status: int = 200):
    return render_template("taxes/edit.html", rows=rows, problems=list(problems),
                           tags=found["tags"], currency=found["currency"], back=back_url(),
                           prefix=flow.edit_prefix), status


def delete(kind: Kind):
    """GET: what would be deleted, with its total. POST: delete it (the upstream answers 204)."""
    ids = selected_ids()
    if not ids:
        return nothing_selected()
    found = flow.read(g.api, kind)
    records = present.selected(found["listing"], kind, ids)
    if not records:
        flash(_("The selected records no longer exist."), "warning")
        return redirect_to(back_url())
    if request.method == "GET":
        return render_template("taxes/delete.html", records=records, back=back_url(),
                               currency=found["currency"], total=present.total(records))
    taxes_api.delete(g.api, kind.name, [record["id"] for record in records])
    flash(ngettext("%(num)d record was deleted.", "%(num)d records were deleted.",
                   len(records)), "success")
    return redirect_to(back_url())




def selected_ids() -> list[int]:
    """The ids sent as `ids` (query or form), in order, without repeats."""
    values = request.values.getlist("ids")
    ids = dict.fromkeys(i for i in map(small_int, values) if i is not None)
    return list(ids)[:MAX_SELECTED]


def back_url() -> str:
    """The list page the user came from (filters kept), or the plain list."""
    return safe_next(request.values.get("back")) or url_for(".index")


def nothing_selected():
    """Back to the list with a message: select records first."""
    flash(_("Select at least one record first."), "warning")
    return redirect_to(back_url())
