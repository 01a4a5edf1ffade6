"""The create grid: several records in one request, checked first, sent once."""
from __future__ import annotations

from functools import partial

from flask import g, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.once import ExpiredKey, LostAnswer, Recovery, Sent, rate_limited_message, send_once
from app.store import idempotency
from app.taxes import create, recovery, refusals, upstream
from app.taxes.kinds import Kind
from app.upstream import RateLimited, Unavailable, ValidationError


class _Unchecked(Exception):
    """The rows did not pass the checks made just before sending; nothing was sent."""


class _Unread(Exception):
    """The checks could not read what they compare with; nothing was sent."""


def new(kind: Kind):
    """GET: blank rows. POST: check, send every filled row at once, land on the list."""
    if request.method == "GET":
        return _page(kind, create.blank_rows(kind), idempotency.new_key())
    key = request.form.get("form_key") or idempotency.new_key()
    rows = create.read_rows(request.form, kind)
    if request.form.get("op") == "more":
        return _page(kind, create.with_more_rows(rows, kind), key)
    filled = [row for row in rows if row.filled]
    status = 400
    try:
        # The checks run inside the send: after a lost answer the records they would
        # collide with may be this form's own, which the recovery looks for first.
        return send_once(key, kind.purpose, partial(_send, kind, filled),
                         recover=_recovery(kind, filled))
    except _Unchecked as exc:
        problems = list(exc.args[0])
    except _Unread:
        problems, status = [_("The accounting service did not answer, so nothing was sent. "
                              "Send the form again in a moment.")], 503
    except ExpiredKey:
        problems, key = [_("This form has expired. Send it again.")], idempotency.new_key()
    except ValidationError as exc:
        problems = refusals.place(exc, filled)
    except LostAnswer as exc:
        problems, status = [str(exc)], 503
    except RateLimited as exc:
        problems, status = [rate_limited_message(exc)], 429
    return _page(kind, rows, key, problems, status)


def _recovery(kind: Kind, rows: list) -> Recovery:
    """A lost grid is found when every row sent is in its month's listing (all or nothing)."""
    items = [create.payload(row) for row in rows]
    here = url_for(".index", open=",".join(sorted({str(i.get("month"))[:7] for i in items})))

    def find(since) -> str | None:
        return here if items and recovery.all_stored(g.api, kind, items) else None

    def existing(exc: ValidationError) -> str | None:
        return here if kind.is_salary and recovery.every_row_exists(exc, len(items)) else None

    found = (_("The accounting service answered late, but the salaries were created.")
             if kind.is_salary else
             _("The accounting service answered late, but the taxes were created."))
    return Recovery(find, existing, found=found)


def _send(kind: Kind, rows: list) -> Sent:
    try:
        problems = create.check(rows, kind, g.api)
    except (Unavailable, RateLimited):
        raise _Unread() from None
    if problems or any(row.has_errors for row in rows):
        raise _Unchecked(problems)
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
