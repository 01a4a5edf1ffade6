"""One rule's form: conditions, what it sets, split parts; live checks and row actions."""
from __future__ import annotations

from flask import abort, flash, request
from flask_babel import gettext as _

from app.policy_editor import bp
from app.policy_editor.editing import open_edit, posted_edit
from app.policy_editor.guards import (
    editor_url,
    refuse_if_misshapen,
    refuse_if_readonly,
    refuse_if_stale,
    target,
)
from app.policy_editor.limits import limit_problems
from app.policy_editor.rules import RuleNotFound
from app.policy_editor.state import load_state, update_draft
from app.templating import is_htmx, redirect_to, render


@bp.route("/rule", methods=["GET", "POST"])
def rule():
    """GET: the form of rule ?section=&index= (no index: a new rule). POST: check or apply."""
    state = load_state()
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
    except RuleNotFound:
        abort(404)
    broken = limit_problems(edit.config) if op == "apply" else []
    for problem in broken:
        flash(problem.text(_), "error")
    if op != "apply" or edit.has_errors or broken:
        return _page(state, edit, status=400 if op == "apply" else 200)
    update_draft(state, edit.config)
    flash(_("%(name)s is in your draft. Review and save to make it take effect.",
            name=edit.rule.get("name")), "success")
    position = index if index is not None else len(edit.config[_key(section)]) - 1
    return redirect_to(editor_url(section, position))


def _key(section: str) -> str:
    return "policies" if section == "policies" else "ignore_policies"


def _opened(state, section, index):
    try:
        return open_edit(state, section, index)
    except RuleNotFound:
        abort(404)


def _page(state, edit, status: int = 200):
    context = {"state": state, "edit": edit, "form": edit.form, "notes": edit.notes}
    status = status if not is_htmx() else 200
    return render("policies/rule.html", "policies/_rule_form.html", **context), status
