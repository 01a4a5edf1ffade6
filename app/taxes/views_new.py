"""The create grid: several records in one request, checked first, sent once."""
from __future__ import annotations

from functools import partial

from flask import g, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.once import ExpiredKey, Sent, send_once
from app.store import idempotency
from app.taxes import create, refusals, upstream
from app.taxes.kinds import Kind
from app.upstream import ValidationError


def new(kind: Kind):
    """GET: blank rows. POST: check, send every filled row at once, land on the list."""
    if request.method == "GET":
        return _page(kind, create.blank_rows(kind), idempotency.new_key())
    key = request.form.get("form_key") or idempotency.new_key()
    rows = create.read_rows(request.form, kind)
    if request.form.get("op") == "more":
        return _page(kind, create.with_more_rows(rows, kind), key)
    filled = [row for row in rows if row.filled]
    problems = create.check(filled, kind, g.api)
    if problems or any(row.has_errors for row in filled):
        return _page(kind, rows, key, problems, 400)
    try:
        return send_once(key, kind.purpose, partial(_send, kind, filled))
    except ExpiredKey:
        problems, key = [_("This form has expired. Send it again.")], idempotency.new_key()
    except ValidationError as exc:
        problems = refusals.place(exc, filled)
    return _page(kind, rows, key, problems, 400)


def _send(kind: Kind, rows: list) -> Sent:
    body = upstream.create(g.api, kind, [create.payload(row) for row in rows])
    months = sorted({str(row.values["month"])[:7] for row in rows})
    count = create.created_count(body, kind) or len(rows)
    message = (ngettext("%(num)d salary was created.", "%(num)d salaries were created.", count)
               if kind.is_salary else
               ngettext("%(num)d tax was created.", "%(num)d taxes were created.", count))
    return Sent(url_for(".index", open=",".join(months)), message)


def _page(kind: Kind, rows: list, key: str, problems=(), status: int = 200):
    found = upstream.form_data(g.api)
    return render_template("taxes/new.html", rows=rows, form_key=key, problems=list(problems),
                           tags=found["tags"], currency=found["currency"],
                           prefix=create.prefix, template_row=create.template_row(kind)), status
