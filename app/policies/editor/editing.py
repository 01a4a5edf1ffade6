"""Editing: pure changes to the rule lists of a configuration (move, switch, copy, delete),
where the engine's problems belong (which rule, which form field, how to name the spot), and one
rule's form (read the posted form, apply a row action, validate the rule in its list)."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from flask_babel import gettext as _

import app.policies.labels as M
from app.policies.editor.forms import RuleForm, build_form, input_errors, rule_from_form
from app.policies.labels import TARGET_LABELS
from app.policies.validate import ERROR, empty_config, rules, validate

# -- the rule lists -------------------------------------------------------------------------------

SECTIONS = {"policies": "policies", "ignore": "ignore_policies"}


class RuleNotFound(LookupError):
    """The section or position names no rule of the configuration."""


def section_key(section: str) -> str:
    """The configuration key of a section ("policies" or "ignore")."""
    if section not in SECTIONS:
        raise RuleNotFound(section)
    return SECTIONS[section]


def rule_list(config, section: str) -> list:
    """The section's rules (empty when absent)."""
    return rules(config, section_key(section))


def get_rule(config, section: str, index: int) -> dict:
    """The rule at index, or RuleNotFound."""
    rules = rule_list(config, section)
    if not 0 <= index < len(rules) or not isinstance(rules[index], dict):
        raise RuleNotFound(f"{section}[{index}]")
    return rules[index]


def new_rule(section: str) -> dict:
    """A fresh rule with one empty condition (policies also set nothing yet)."""
    rule = {"name": "", "enabled": True, "match": "all",
            "conditions": [{"field": "partner_name", "op": "contains", "value": ""}]}
    if section == "policies":
        rule["set"] = {}
    return rule


def _with_rules(config, section: str, change) -> dict:
    result = copy.deepcopy(config) if isinstance(config, dict) else empty_config()
    rules = list(rule_list(result, section))
    change(rules)
    result[section_key(section)] = rules
    return result


def put_rule(config, section: str, index: int | None, rule: dict) -> dict:
    """Replace the rule at index, or append it when index is None."""
    def _change(rules):
        if index is None:
            rules.append(copy.deepcopy(rule))
        else:
            get_rule(config, section, index)
            rules[index] = copy.deepcopy(rule)
    return _with_rules(config, section, _change)


def delete_rule(config, section: str, index: int) -> dict:
    """Remove the rule at index."""
    get_rule(config, section, index)
    return _with_rules(config, section, lambda rules: rules.pop(index))


def duplicate_rule(config, section: str, index: int) -> dict:
    """Insert a copy under the original, named "<name> (copy)" (numbered when taken)."""
    rule = copy.deepcopy(get_rule(config, section, index))
    rule["name"] = copy_name(str(rule.get("name") or ""), rule_list(config, section))
    return _with_rules(config, section, lambda rules: rules.insert(index + 1, rule))


def copy_name(name: str, rules: list) -> str:
    """A name for a copy that no rule of the list has yet."""
    taken = {str(r.get("name", "")).casefold() for r in rules if isinstance(r, dict)}
    candidate, number = _("%(name)s (copy)", name=name), 2
    while candidate.casefold() in taken:
        candidate = _("%(name)s (copy %(number)s)", name=name, number=number)
        number += 1
    return candidate


def move_rule(config, section: str, index: int, delta: int) -> dict:
    """Move the rule by delta places (clamped to the list)."""
    get_rule(config, section, index)
    target = max(0, min(len(rule_list(config, section)) - 1, index + delta))
    return _with_rules(config, section, lambda rules: rules.insert(target, rules.pop(index)))


def toggle_rule(config, section: str, index: int) -> dict:
    """Switch the rule on or off (a missing "enabled" counts as on)."""
    rule = copy.deepcopy(get_rule(config, section, index))
    rule["enabled"] = rule.get("enabled", True) is False
    return put_rule(config, section, index, rule)


def set_switch(config, on: bool) -> dict:
    """Set skip_for_multiple_match."""
    result = copy.deepcopy(config) if isinstance(config, dict) else empty_config()
    result["skip_for_multiple_match"] = bool(on)
    return result


# -- where problems belong ------------------------------------------------------------------------

RULE_KEYS = {key: section for section, key in SECTIONS.items()}
TARGETS = ("revenue_type", "ledger_number", "job_number", "tags")
CONDITION_PARTS = ("field", "op", "value")


@dataclass(frozen=True)
class Located:
    """A problem with its form field key and a human description of where it is."""

    key: str
    where: str
    text: str
    level: str
    msgid: str = ""

    @property
    def is_error(self) -> bool:
        """Whether the problem blocks saving."""
        return self.level == ERROR


def split_by_rule(problems) -> tuple[dict, list]:
    """({(section, index): [problem with a rule-relative path]}, configuration-level problems)."""
    by_rule, general = {}, []
    for problem in problems:
        path = problem.path
        if len(path) >= 2 and path[0] in RULE_KEYS and isinstance(path[1], int):
            relative = type(problem)(path[2:], problem.message, problem.params, problem.level)
            by_rule.setdefault((RULE_KEYS[path[0]], path[1]), []).append(relative)
        else:
            general.append(problem)
    return by_rule, general


def locate(problem) -> Located:
    """Translate a rule-relative problem and name its form field."""
    key = form_key(problem.path)
    return Located(key, describe(key), problem.text(_), problem.level, problem.message)


def form_key(path) -> str:
    """The form field a rule-relative path points at ("name", "conditions-0-value", ...)."""
    if not path:
        return "rule"
    head, rest = path[0], path[1:]
    if head in ("name", "enabled", "match"):
        return head
    if head == "conditions":
        return _row_key("conditions", rest, CONDITION_PARTS)
    if head == "set":
        return _set_key(rest)
    return "rule"


def _row_key(prefix: str, rest, parts, rename=None) -> str:
    if not rest or not isinstance(rest[0], int):
        return prefix
    row = f"{prefix}-{rest[0]}"
    if len(rest) >= 2 and rest[1] in parts:
        return f"{row}-{(rename or {}).get(rest[1], rest[1])}"
    return row


def _set_key(rest) -> str:
    if not rest:
        return "set"
    if rest[0] in TARGETS:
        return rest[0]
    if rest[0] == "split":
        parts = TARGETS + ("percent", "amount")
        return _row_key("split", rest[1:], parts, {"percent": "share", "amount": "share"})
    return "set"


def describe(key: str) -> str:
    """Name the spot of a form key for a reader ("Condition 2: value")."""
    pieces = key.split("-")
    if len(pieces) == 1:
        return _single(key)
    number = int(pieces[1]) + 1
    row = (_("Condition %(number)s", number=number) if pieces[0] == "conditions"
           else _("Part %(number)s", number=number))
    return f"{row}: {_part_label(pieces[2])}" if len(pieces) > 2 else row


def _single(key: str) -> str:
    labels = {"rule": "", "name": _("Name"), "enabled": _("Active"), "match": _("Match"),
              "conditions": _("Conditions"), "set": _("What it sets"), "split": _("Split")}
    return labels[key] if key in labels else str(TARGET_LABELS.get(key, key))


def _part_label(part: str) -> str:
    labels = {"field": _("field"), "op": _("comparison"), "value": _("value"),
              "share": _("share")}
    return labels[part] if part in labels else str(TARGET_LABELS.get(part, part)).lower()


# -- one rule's form ------------------------------------------------------------------------------

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

    @property
    def position(self) -> int:
        """The rule's index in config: its own, or the last one for a new rule."""
        return self.index if self.index is not None else len(rule_list(self.config,
                                                                        self.section)) - 1


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
    edit = RuleEdit(section, index, rule, put_rule(state.config, section, index, rule),
                    build_form(rule, state.catalogs), focus=focus)
    by_rule, _ = split_by_rule(validate(edit.config))
    found = [] if quiet else by_rule.get((section, edit.position), [])
    edit.notes = attach(edit.form, [locate(p) for p in found])
    edit.has_errors = any(p.level == "error" for p in found)
    return edit


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
        return _field(form, key) if key not in ("conditions", "split") else None
    if len(pieces) != 3:
        return None
    rows = form.conditions if pieces[0] == "conditions" else form.split
    index = int(pieces[1])
    if index >= len(rows.entries):
        return None
    return _field(rows.entries[index].form, pieces[2])


def _field(form, name: str):
    return next((field for field in form if field.short_name == name), None)
