"""What the editor pages show: one card per rule with its problems, and rules in words for the
list, the history and the confirmation pages."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from flask_babel import gettext as _

from app.numbers import format_number, format_percent, to_decimal
from app.policies.editing import SECTIONS, Located, locate, rule_list, split_by_rule
from app.policies.forms import value_text
from app.policies.labels import INCOME_TYPES, TARGET_LABELS, field_label, op_label
from app.policies.validate import NUMERIC_FIELDS

# -- the editor page's cards ----------------------------------------------------------------------

@dataclass
class Card:
    """One rule of a list as the editor shows it."""

    section: str
    index: int
    rule: dict
    problems: list = field(default_factory=list)

    @property
    def errors(self) -> int:
        """How many blocking problems the rule has."""
        return sum(1 for problem in self.problems if problem.is_error)

    @property
    def enabled(self) -> bool:
        """Whether the rule takes part (a missing "enabled" means yes)."""
        return self.rule.get("enabled", True) is not False

    @property
    def anchor(self) -> str:
        """The element id of the card."""
        return f"rule-{self.section}-{self.index}"


def editor_model(state) -> dict:
    """Cards per section and the configuration-level problems of the shown configuration."""
    by_rule, general = split_by_rule(state.problems)
    cards = {section: [Card(section, index, rule, [locate(p) for p in by_rule.get((section, index),
                                                                                   [])])
                       for index, rule in enumerate(rule_list(state.config, section))]
             for section in SECTIONS}
    return {"cards": cards, "general": [_general(p) for p in general],
            "error_count": sum(1 for p in state.problems if p.level == "error")}


def flat_problems(cards: dict, errors: bool) -> list[tuple]:
    """(card, problem) pairs of every rule: the errors, or the notes that do not block saving."""
    return [(card, problem) for items in cards.values() for card in items
            for problem in card.problems if problem.is_error == errors]


def _general(problem) -> Located:
    where = "/".join(str(step) for step in problem.path)
    return Located("config", where or _("Policy settings"), problem.text(_), problem.level)


# -- rules in words -------------------------------------------------------------------------------

REF_ORDER = ("revenue_type", "ledger_number", "job_number", "tags")


@dataclass
class ActionItem:
    """One thing a policy (or split part) sets: a label and its values with their status."""

    label: str
    values: list = field(default_factory=list)


def condition_text(condition) -> str:
    """'Partner name contains “Soft”'."""
    if not isinstance(condition, dict):
        return _("(unreadable condition)")
    field_name, op = condition.get("field"), condition.get("op")
    return f"{field_label(field_name)} {op_label(op)} {_value_words(field_name, op, condition)}"


def _value_words(field_name, op, condition) -> str:
    value = condition.get("value")
    if op == "between" and isinstance(value, list) and len(value) == 2:
        return _("%(low)s and %(high)s", low=_one(field_name, value[0]),
                 high=_one(field_name, value[1]))
    if isinstance(value, list):
        return ", ".join(_one(field_name, item) for item in value)
    return _one(field_name, value)


def _one(field_name, value) -> str:
    amount = to_decimal(value) if field_name in NUMERIC_FIELDS else None
    if field_name == "type" and amount in INCOME_TYPES:
        return f"{value_text(value)} ({INCOME_TYPES[int(amount)]})"
    if amount is not None:
        return format_number(amount)
    return _("“%(value)s”", value=value_text(value))


def match_text(rule) -> str:
    """How the conditions combine."""
    if not rule.get("conditions"):
        return _("Every income (no conditions)")
    return _("Any of these:") if rule.get("match") == "any" else _("All of these:")


def action_items(values, catalogs) -> list[ActionItem]:
    """What a policy or a split part sets, reference by reference."""
    items = []
    values = values if isinstance(values, dict) else {}
    for key in REF_ORDER:
        found = values.get(key)
        if found is None or found == []:
            continue
        listed = found if key == "tags" and isinstance(found, list) else [found]
        items.append(ActionItem(str(TARGET_LABELS[key]), [_ref(key, v, catalogs) for v in listed]))
    return items


def _ref(key, value, catalogs) -> dict:
    if key == "job_number":
        return {"text": value_text(value), "status": None}
    catalog = catalogs.for_target(key)
    return {"text": catalog.label(value), "status": catalog.status(value)}


def part_share(part) -> str:
    """'70%' (the locale's percent) or '15 000' for a split part."""
    if not isinstance(part, dict):
        return "?"
    if part.get("percent") is not None:
        return format_percent(part["percent"])
    return format_number(part.get("amount"), places=2)


def split_check(parts) -> tuple[str, str] | None:
    """Whether the parts cover the whole income: (level, message), or None without parts."""
    if not isinstance(parts, list) or not parts:
        return None
    percents = [to_decimal(p.get("percent")) for p in parts if p.get("percent") is not None]
    amounts = [to_decimal(p.get("amount")) for p in parts if p.get("percent") is None]
    if None in percents or None in amounts:
        return "error", _("Enter a share for every part.")
    fixed = format_number(sum(amounts, Decimal(0)), places=2)
    if not percents:
        return "warning", _("The parts add up to %(total)s. Only an income of exactly this gross "
                            "amount is split; any other will need review.", total=fixed)
    return _percent_check(sum(percents, Decimal(0)), fixed if amounts else None)


def _percent_check(total, fixed) -> tuple[str, str]:
    if total != 100:
        return "error", _("The percent parts add up to %(total)s; they must add up to "
                          "exactly %(whole)s.", total=format_percent(total),
                          whole=format_percent(100))
    if fixed is not None:
        return "ok", _("The amount parts (%(total)s together) are taken first; the percent "
                       "parts share the rest and add up to %(whole)s.", total=fixed,
                       whole=format_percent(100))
    return "ok", _("The parts add up to 100 percent: they cover the whole income.")
