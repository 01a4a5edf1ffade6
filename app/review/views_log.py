"""Recent review actions (Bookdesk's own log) and undo of any of them."""
from __future__ import annotations

from flask import abort, flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.auth import current_actor
from app.htmx import is_htmx, redirect_to
from app.incomes.flow import FORM_CATALOGS, settings_and_catalogs
from app.nav import safe_next
from app.params import whole
from app.review import bp, flow, log_view, prefetch, screen, walk
from app.review.undo import can_undo, undo
from app.review.views_screen import _show
from app.store.review_log import get_action, recent_actions

PAGE = 100


@bp.get("/actions")
def actions():
    """The company's latest review actions: who, when, which incomes, before and after."""
    _settings, catalogs = settings_and_catalogs(g.api, FORM_CATALOGS)
    names = screen.names(catalogs)
    entries = [{"action": action, "can_undo": can_undo(action),
                "incomes": [(i, log_view.lines(action, i, names)) for i in action.income_ids]}
               for action in recent_actions(g.company_id, limit=PAGE)]
    return render_template("review/actions.html", log_entries=entries)


@bp.post("/undo")
def undo_action():
    """Undo one logged action; back to the screen (showing the income again) or the page."""
    action_id = whole(request.form.get("action_id"), "action_id", minimum=1)
    action = get_action(g.company_id, action_id) if action_id is not None else None
    if action is None:
        abort(404)
    result = undo(g.api, g.company_id, current_actor(), action)
    for income_id in result.reverted:
        prefetch.forget(g.api, income_id)
    _reopen(result.reverted)
    _report(result)
    if request.form.get("back") == "screen" and result.reverted:
        return _back_to_screen(result.reverted[-1])
    return redirect_to(safe_next(request.form.get("back")) or url_for(".actions"))


def _reopen(income_ids: list[int]) -> None:
    current = walk.load(g.company_id)
    if current is not None and income_ids:
        for income_id in income_ids:
            current.reopen(income_id)
        walk.save(g.company_id, current)


def _report(result) -> None:
    if result.message and not result.ok:
        flash(result.message, "warning")
        return
    if result.reverted:
        flash(_("Undone. Incomes back as they were: %(num)s.", num=len(result.reverted)),
              "success")
    else:
        flash(_("Nothing was undone."), "warning")
    for income_id, why in result.kept.items():
        flash(_("#%(id)s was left as it is: %(reason)s", id=income_id, reason=why), "warning")
    if result.refused is not None:
        flash(_("Stopped at the first refusal: the accounting service does not let your token "
                "change incomes (#%(id)s was refused). Put back before that: %(done)s. Not "
                "sent: %(left)s.", id=result.refused, done=len(result.reverted),
                left=len(result.not_sent)), "error")


def _back_to_screen(income_id: int):
    """Show the income whose action was undone, in place of the current one."""
    bits = flow.base()
    target = flow.screen_url(income_id, bits.filters.key)
    if not is_htmx():
        return redirect_to(target)
    current, _found = flow.ensure_walk(bits)
    record, artifact = prefetch.get(g.api, income_id)
    response = _show(flow.screen_context(bits, current, record, artifact), push=target)
    return response
