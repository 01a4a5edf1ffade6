"""Editing one rule (read the posted form, apply a row action, validate the rule in its list),
and the checks every writing view makes: a known rule, a writable editor, the draft it saw."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from flask import abort, flash, url_for
from flask_babel import gettext as _

import app.policies.messages as M
from app.htmx import redirect_to
from app.params import whole
from app.policies.flow import SECTIONS, get_rule, new_rule, put_rule, rule_list
from app.policies.forms import RuleForm, build_form, input_errors, rule_from_form
from app.policies.present import locate, split_by_rule
from app.policies.validate import validate

# -- one rule's form-------------------------------------------------------------------------------

BLANK_CONDITION = {"field": "partner_name", "op": "contains", "value": ""}
ROW_OPS = ("add-condition", "remove-condition", "add-part", "remove-part")


class Notes(dict):
    """Problems not shown on a field itself, keyed by form key."""

    def under(self, prefix: str) -> list:
        """The notes at prefix and every key below it ("conditions-0" and "conditions-0-op")."""
        return [note for key, found in self.items()
                if key == prefix or key.startswith(prefix + "-") for note in found]


@dataclass
class RuleEdit:
    """One rule being edited, with its form and problems."""

    section: str
    index: int | None
    rule: dict
    config: dict
    form: RuleForm
    notes: Notes = field(default_factory=Notes)
    has_errors: bool = False
    focus: str | None = None

    @property
    def is_new(self) -> bool:
        """Whether the rule is not in the draft yet."""
        return self.index is None


def open_edit(state, section: str, index: int | None) -> RuleEdit:
    """The form of a stored rule (problems shown), or of a new one (no problems yet)."""
    if index is None:
        return finish(state, section, None, new_rule(section), quiet=True)
    return finish(state, section, index, copy.deepcopy(get_rule(state.config, section, index)))


def posted_edit(state, section: str, index: int | None, formdata) -> tuple[RuleEdit, str]:
    """The rule as posted, after its row action; returns the edit and the action name."""
    original = new_rule(section) if index is None else get_rule(state.config, section, index)
    form = RuleForm(formdata)
    rule = rule_from_form(form, original, section, state.catalogs)
    op, _, arg = (formdata.get("op") or "check").partition(":")
    focus = apply_row_op(rule, op, arg)
    if op == "check" and _split_just_switched_on(rule):
        rule["set"]["split"] = [{"percent": 50}, {"percent": 50}]
    edit = finish(state, section, index, rule, focus=focus)
    if op not in ROW_OPS:
        refuse_input(edit, input_errors(form))
    return edit, op


def refuse_input(edit: RuleEdit, errors: dict[str, str]) -> None:
    """Put the messages of numbers that could not be read on their fields, in place of the
    policy check's (which reads the kept text differently); the rule has errors."""
    for key, message in errors.items():
        target = field_for(edit.form, key)
        if target is not None:
            target.errors = [message]
            edit.has_errors = True


def _split_just_switched_on(rule: dict) -> bool:
    return isinstance(rule.get("set"), dict) and rule["set"].get("split") == []


def apply_row_op(rule: dict, op: str, arg: str) -> str | None:
    """Add or remove a condition or split part; returns the form key to focus."""
    conditions = rule.setdefault("conditions", [])
    parts = rule.get("set", {}).get("split") if isinstance(rule.get("set"), dict) else None
    if op == "add-condition":
        conditions.append(dict(BLANK_CONDITION))
        return f"conditions-{len(conditions) - 1}-field"
    if op == "remove-condition" and arg in map(str, range(len(conditions))):
        conditions.pop(int(arg))
        return "add-condition"
    if op == "add-part" and isinstance(parts, list):
        parts.append({"percent": ""})
        return f"split-{len(parts) - 1}-share"
    if op == "remove-part" and isinstance(parts, list) and arg in map(str, range(len(parts))):
        parts.pop(int(arg))
        return "add-part"
    return None


def finish(state, section, index, rule, *, quiet=False, focus=None) -> RuleEdit:
    """Validate rule in place of (or after) the draft's rules and build its form."""
    config = put_rule(state.config, section, index, rule)
    position = index if index is not None else len(rule_list(config, section)) - 1
    by_rule, _ = split_by_rule(validate(config))
    located = [] if quiet else [locate(p) for p in by_rule.get((section, position), [])]
    form = build_form(rule, state.catalogs)
    notes = attach(form, located)
    has_errors = not quiet and any(p.level == "error"
                                   for p in by_rule.get((section, position), []))
    return RuleEdit(section, index, rule, config, form, notes, has_errors, focus)


def attach(form, located) -> Notes:
    """Put errors on their fields; everything else becomes a note by key."""
    notes = Notes()
    for problem in located:
        if problem.msgid == M.PERCENT_SUM:
            continue  # the split check above the parts says it already
        target = field_for(form, problem.key)
        if problem.is_error and target is not None:
            target.errors = [*target.errors, problem.text]
        else:
            notes.setdefault(problem.key, []).append(problem)
    return notes


def field_for(form, key: str):
    """The form field of a form key, or None for row and section keys."""
    pieces = key.split("-")
    if len(pieces) == 1:
        return form._fields.get(key) if key not in ("conditions", "split") else None
    if len(pieces) != 3:
        return None
    rows = form.conditions if pieces[0] == "conditions" else form.split
    index = int(pieces[1])
    if index >= len(rows.entries):
        return None
    return rows.entries[index].form._fields.get(pieces[2])


# -- guards of the writing views-------------------------------------------------------------------

def target(values) -> tuple[str, int | None]:
    """(section, index) from the request; index None means a new rule; 404 for an unknown
    section, 400 for an index that is not a number."""
    section = values.get("section") or "policies"
    if section not in SECTIONS:
        abort(404)
    return section, whole(values.get("index"), "index")


def refuse_if_misshapen(state):
    """A redirect to the editor (which lists the problems) when the draft cannot be edited as
    a form, else None."""
    return redirect_to(url_for("policy_editor.index")) if state.shape else None


def refuse_if_readonly(state):
    """A redirect to the editor when this session's token may not save, else None."""
    if not state.readonly:
        return None
    flash(_("Your token may not change the policies, so the editor is read-only."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def refuse_if_stale(state, posted_rev):
    """A redirect when the form was made from an older draft (another tab changed it)."""
    if str(posted_rev or "0") == str(state.rev):
        return None
    flash(_("The draft was changed in another window in the meantime. Here it is as it is "
            "now; please make your change again."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def editor_url(section: str | None = None, index: int | None = None) -> str:
    """The editor, scrolled to one rule when given."""
    anchor = f"#rule-{section}-{index}" if section and index is not None else ""
    return url_for("policy_editor.index") + anchor
