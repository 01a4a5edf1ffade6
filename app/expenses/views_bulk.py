"""Bulk approve, unapprove, check and uncheck on the expense list: one upstream call each.

The list's form posts the ticked ids, the action and a one-time form key (a double submit sends
once). The answer of POST /1/expenses/<action>/ becomes one translated summary above the list.
A 403 is remembered for this token (as the settings page does), so the list then shows the
controls disabled with the reason.
"""
from __future__ import annotations

from functools import partial

from flask import flash, g, request, session
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.auth import current_actor
from app.expenses import bp, upstream
from app.expenses.filters import list_query
from app.forms.filters import filter_args
from app.once import ExpiredKey, Sent, repeat_response, send_once
from app.params import small_int
from app.store import idempotency
from app.templating import redirect_to
from app.upstream import PermissionDenied

PURPOSE = "expense-bulk"
DENIED_KEY = "expense_bulk_read_only"
MAX_IDS = 500
DONE = {"approve": _l("%(num)s approved"), "unapprove": _l("%(num)s unapproved"),
        "check": _l("%(num)s checked"), "uncheck": _l("%(num)s unchecked")}
READ_ONLY = _l("The accounting service does not let your token approve or check expenses (a "
               "viewer, for example, cannot change records). Nothing was changed.")


@bp.post("/bulk")
def bulk():
    """Apply the chosen action to the ticked expenses in one upstream call; back to the list."""
    back = list_query(filter_args(request.args)).url(".index")
    action, ids = request.form.get("action"), selected_ids(request.form.getlist("ids"))
    if action not in upstream.BULK_ACTIONS or not ids:
        flash(_("Tick the expenses and choose an action first."), "info")
        return redirect_to(back)
    try:
        return send_once(request.form.get("form_key") or "", PURPOSE,
                         partial(_send, action, ids, back), repeat=_repeat)
    except ExpiredKey:
        flash(_("This form has expired. Reload the page and try again."), "warning")
    except PermissionDenied:
        remember_read_only()
        flash(str(READ_ONLY), "error")
    return redirect_to(back)


def _send(action: str, ids: list[int], back: str) -> Sent:
    answer = upstream.bulk_action(g.api, action, ids)
    text, failed = summary(action, answer)
    flash(text, "warning" if failed else "success")
    return Sent(back, response=redirect_to(back))


def _repeat(claim: idempotency.Claim):
    return repeat_response(claim, _("This form was already sent; nothing was sent twice."))


def selected_ids(values: list[str]) -> list[int]:
    """The posted expense ids, each once, in order; anything not an id is left out."""
    ids = (small_int(value) for value in values[:MAX_IDS])
    return list(dict.fromkeys(i for i in ids if i))


def summary(action: str, answer: dict) -> tuple[str, bool]:
    """("3 approved; 1 failed: #12 — reason", whether any failed) from the upstream answer."""
    done = DONE[action] % {"num": len(answer.get("success_ids") or [])}
    reasons = {item.get("id"): item.get("errors") or [] for item in answer.get("errors") or []}
    failed = answer.get("failed_ids") or list(reasons)
    if not failed:
        return str(done), False
    listed = "; ".join(_failure(i, reasons.get(i, [])) for i in failed)
    return _("%(done)s; %(num)s failed: %(list)s", done=done, num=len(failed),
             list=listed), True


def _failure(expense_id, reasons: list) -> str:
    """"#12 — reason, reason" (the upstream's own words), or "#12" when it gave none."""
    return f"#{expense_id} — {', '.join(map(str, reasons))}" if reasons else f"#{expense_id}"


def remember_read_only() -> None:
    """Note that the upstream refused this token a bulk action."""
    denied = session.get(DENIED_KEY, [])
    if current_actor().fp not in denied:
        session[DENIED_KEY] = [*denied, current_actor().fp]


def read_only() -> bool:
    """True when the upstream already refused this token a bulk action."""
    return current_actor().fp in session.get(DENIED_KEY, [])


def bulk_context() -> dict:
    """What the list's bulk form needs: its key, the actions and whether they are disabled."""
    return {"bulk_key": idempotency.new_key(), "bulk_actions": _labels(),
            "bulk_read_only": READ_ONLY if read_only() else None,
            "bulk_url": list_query(filter_args(request.args)).url(".bulk")}


def _labels() -> list[tuple[str, str]]:
    return [("approve", _("Approve")), ("unapprove", _("Unapprove")), ("check", _("Check")),
            ("uncheck", _("Uncheck"))]
