"""Where the engine's problems belong: which rule, which form field, and how to name the spot."""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from app.policies import ERROR
from app.policy_editor.labels import TARGET_LABELS

RULE_KEYS = {"policies": "policies", "ignore_policies": "ignore"}
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
