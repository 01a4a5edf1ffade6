"""The editor page: both rule lists, the multiple-match switch, and the list actions."""
from __future__ import annotations

from flask import flash, g, request, url_for
from flask_babel import gettext as _

from app.auth import current_actor
from app.policy_editor import bp, drafts, rules
from app.policy_editor.cards import editor_model
from app.policy_editor.guards import editor_url, refuse_if_readonly, refuse_if_stale, target
from app.policy_editor.state import load_state, update_draft
from app.templating import is_htmx, redirect_to, render

LIST_ACTIONS = {
    "move-up": lambda config, section, index: rules.move_rule(config, section, index, -1),
    "move-down": lambda config, section, index: rules.move_rule(config, section, index, 1),
    "toggle": rules.toggle_rule,
    "duplicate": rules.duplicate_rule,
    "delete": rules.delete_rule,
}


@bp.get("/")
def index():
    """The rule lists of the draft (or of the stored configuration when there is no draft)."""
    state = load_state()
    return render("policies/index.html", "policies/_editor.html", **_context(state))


def _context(state, focus: str | None = None) -> dict:
    return {"state": state, "focus": focus, **editor_model(state)}


@bp.post("/act")
def act():
    """Move, switch, duplicate or delete a rule, or set the multiple-match switch."""
    state = load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused:
        return refused
    op = request.form.get("op", "")
    section, index = target(request.form)
    try:
        config, index = _apply(state.config, op, section, index)
    except rules.RuleNotFound:
        flash(_("That rule is no longer in the list."), "warning")
        return redirect_to(url_for("policy_editor.index"))
    update_draft(state, config)
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
        return rules.set_switch(config, request.form.get("value") == "on"), None
    if op not in LIST_ACTIONS or index is None:
        raise rules.RuleNotFound(op)
    changed = LIST_ACTIONS[op](config, section, index)
    moved = {"move-up": -1, "move-down": 1, "duplicate": 1}.get(op, 0)
    count = len(rules.rule_list(changed, section))
    return changed, None if op == "delete" else max(0, min(count - 1, index + moved))


def _focus(op: str, section: str, index: int | None) -> str | None:
    """Which control keeps the keyboard focus after the list is redrawn."""
    if index is None:
        return "switch" if op == "switch" else f"add-{section}"
    return f"{op}-{section}-{index}"


@bp.post("/discard")
def discard():
    """Throw the draft away and show the stored configuration again."""
    drafts.discard_draft(g.company_id)
    flash(_("Your unsaved changes were discarded."), "info")
    return redirect_to(url_for("policy_editor.index"))


@bp.post("/unlock")
def unlock():
    """Forget that a save was refused, so the user can try again (e.g. after a role change)."""
    drafts.forget_readonly(current_actor().fp)
    return redirect_to(url_for("policy_editor.index"))
