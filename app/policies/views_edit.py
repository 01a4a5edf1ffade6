"""Editing views: the editor page with both rule lists and their actions, one rule's form, and
the preview of the draft over recent incomes. Nothing here writes upstream."""
from __future__ import annotations

from datetime import date
from functools import partial

from flask import abort, flash, g, request, url_for
from flask_babel import gettext as _

import app.policies.editing as editing
import app.policies.flow as flow
import app.policies.history as history
from app.params import arg_int
from app.policies.editing import open_edit, posted_edit
from app.policies.flow import (
    editor_url,
    refuse_if_misshapen,
    refuse_if_readonly,
    refuse_if_stale,
    target,
)
from app.policies.present import editor_model
from app.policies.preview import (
    DEFAULT_MONTHS,
    FILTERS,
    MONTH_CHOICES,
    fetch_incomes,
    months_ago,
    run_preview,
)
from app.policies.validate import has_errors
from app.templating import is_htmx, redirect_to, render
from app.upstream import run_parallel

# -- the editor page ------------------------------------------------------------------------------

LIST_ACTIONS = {
    "move-up": lambda config, section, index: editing.move_rule(config, section, index, -1),
    "move-down": lambda config, section, index: editing.move_rule(config, section, index, 1),
    "toggle": editing.toggle_rule,
    "duplicate": editing.duplicate_rule,
    "delete": editing.delete_rule,
}


def index():
    """The rule lists of the draft (or of the stored configuration when there is no draft)."""
    state = flow.load_state()
    return render("policies/index.html", "policies/_editor.html", **_context(state))


def _context(state, focus: str | None = None) -> dict:
    return {"state": state, "focus": focus, **editor_model(state)}


def act():
    """Move, switch, duplicate or delete a rule, or set the multiple-match switch."""
    state = flow.load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused:
        return refused
    op = request.form.get("op", "")
    section, index = target(request.form)
    try:
        config, index = _apply(state.config, op, section, index)
    except editing.RuleNotFound:
        flash(_("That rule is no longer in the list."), "warning")
        return redirect_to(url_for("policy_editor.index"))
    flow.update_draft(state, config)
    return _after_act(state, op, section, index)


def _after_act(state, op: str, section: str, index: int | None):
    """The redrawn editor for htmx (focus on the rule acted on), else back to the page."""
    if is_htmx():
        return render("policies/index.html", "policies/_editor.html",
                      **_context(state, _focus(op, section, index)))
    return redirect_to(editor_url(section, index))


def _apply(config, op: str, section: str, index: int | None):
    """The changed configuration and the rule's new position."""
    if op == "switch":
        return editing.set_switch(config, request.form.get("value") == "on"), None
    if op not in LIST_ACTIONS or index is None:
        raise editing.RuleNotFound(op)
    changed = LIST_ACTIONS[op](config, section, index)
    moved = {"move-up": -1, "move-down": 1, "duplicate": 1}.get(op, 0)
    count = len(editing.rule_list(changed, section))
    return changed, None if op == "delete" else max(0, min(count - 1, index + moved))


def _focus(op: str, section: str, index: int | None) -> str | None:
    """Which control keeps the keyboard focus after the list is redrawn."""
    if index is None:
        return "switch" if op == "switch" else f"add-{section}"
    return f"{op}-{section}-{index}"


def discard():
    """Throw the draft away and show the stored configuration again."""
    flow.discard_draft(g.company_id)
    flash(_("Your unsaved changes were discarded."), "info")
    return redirect_to(url_for("policy_editor.index"))


def unlock():
    """Forget that a save was refused, so the user can try again (e.g. after a role change)."""
    flow.forget_readonly()
    return redirect_to(url_for("policy_editor.index"))


# -- one rule's form ------------------------------------------------------------------------------

def rule():
    """GET: the form of rule ?section=&index= (no index: a new rule). POST: check or apply."""
    state = flow.load_state()
    section, index = target(request.values)
    misshapen = refuse_if_misshapen(state)
    if misshapen:
        return misshapen
    if request.method == "GET":
        return _page(state, _opened(state, section, index))
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    return refused or _posted(state, section, index)


def _posted(state, section, index):
    """Re-show the form after a check or row action; apply a rule without errors."""
    try:
        edit, op = posted_edit(state, section, index, request.form)
    except editing.RuleNotFound:
        abort(404)
    broken = history.limit_problems(edit.config) if op == "apply" else []
    for problem in broken:
        flash(problem.text(_), "error")
    if op != "apply" or edit.has_errors or broken:
        return _page(state, edit, status=400 if op == "apply" else 200)
    flow.update_draft(state, edit.config)
    flash(_("%(name)s is in your draft. Review and save to make it take effect.",
            name=edit.rule.get("name")), "success")
    position = index if index is not None else len(edit.config[_key(section)]) - 1
    return redirect_to(editor_url(section, position))


def _key(section: str) -> str:
    return "policies" if section == "policies" else "ignore_policies"


def _opened(state, section, index):
    try:
        return open_edit(state, section, index)
    except editing.RuleNotFound:
        abort(404)


def _page(state, edit, status: int = 200):
    context = {"state": state, "edit": edit, "form": edit.form, "notes": edit.notes}
    status = status if not is_htmx() else 200
    return render("policies/rule.html", "policies/_rule_form.html", **context), status


# -- the preview ----------------------------------------------------------------------------------

def preview():
    """What the draft would do to recent incomes (?months=, ?show= filter)."""
    months = arg_int(request.args, "months", DEFAULT_MONTHS)
    months = months if months in MONTH_CHOICES else DEFAULT_MONTHS
    show = request.args.get("show") if request.args.get("show") in FILTERS else "all"
    since = months_ago(date.today(), months)
    found = _read_side_by_side(since)
    incomes, truncated = found.pop("incomes")
    state = flow.load_state(data=flow.editor_data(found))
    context = {"state": state, "months": months, "month_choices": MONTH_CHOICES, "show": show,
               "filters": FILTERS, "result": None, "blocked": has_errors(state.problems)}
    if not context["blocked"]:
        context["result"] = run_preview(state.config, incomes, state.catalogs, since)
        context["result"].truncated = truncated
    return render("policies/preview.html", "policies/_preview_results.html", **context)


def _read_side_by_side(since: date) -> dict:
    """The incomes do not depend on the stored configuration: one round trip for both."""
    tasks = flow.editor_tasks(g.api, currencies=True)
    tasks["incomes"] = partial(fetch_incomes, g.api, since)
    return run_parallel(tasks)
