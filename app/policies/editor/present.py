"""What the editor pages show: one card per rule with its problems, rules in words for the list,
the history and the confirmation pages, and the preview: the draft run over the company's
recent incomes, as the engine would apply it, with what a policy changes on each income as
"from -> to" lines."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from flask_babel import gettext as _

from app.forms.registry import VAT_AREAS
from app.numbers import InputError, format_amount, format_number, format_percent, to_decimal
from app.policies.editor.editing import SECTIONS, Located, locate, rule_list, split_by_rule
from app.policies.editor.forms import reader, value_text
from app.policies.engine import evaluate_valid
from app.policies.labels import (
    MISSING,
    NEW,
    NUMERIC_FIELDS,
    TARGET_LABELS,
    field_label,
    op_label,
    with_known_ids,
)
from app.policies.validate import ensure_valid
from app.templating import KINDS
from app.upstream import incomes as upstream_incomes

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
    """A label and its values with their status: one thing a policy (or split part) sets, or a
    condition's field and comparison and the values it compares with."""

    label: str
    values: list = field(default_factory=list)


# The comparisons whose values are codes of the field's choices, named as the rest of the app
# names them; a code the app does not know is shown as it is and marked MISSING.
CHOICE_OPS = ("equals", "not_equals", "in")
CHOICE_FIELDS = ("type", "vat_area")
AREA_NAMES = {code.casefold(): label for code, label in VAT_AREAS}  # compared as the engine does


def condition_words(condition) -> ActionItem:
    """'Partner name contains' and [“Soft”]; 'Income type is one of' and [cash receipt, …]."""
    if not isinstance(condition, dict):
        return ActionItem(_("(unreadable condition)"))
    field_name, op = condition.get("field"), condition.get("op")
    return ActionItem(f"{field_label(field_name)} {op_label(op)}",
                      _value_words(field_name, op, condition.get("value")))


def _value_words(field_name, op, value) -> list[dict]:
    if op == "between" and isinstance(value, list) and len(value) == 2:
        low, high = (_literal(field_name, item) for item in value)
        return [{"text": _("%(low)s and %(high)s", low=low, high=high), "status": None}]
    listed = value if isinstance(value, list) else [value]
    return [_one(field_name, op, item) for item in listed]


def _one(field_name, op, value) -> dict:
    if op not in CHOICE_OPS or field_name not in CHOICE_FIELDS:
        return {"text": _literal(field_name, value), "status": None}
    name = _choice_name(field_name, value)
    if name is None:
        return {"text": _literal(field_name, value), "status": MISSING}
    return {"text": name, "status": None}


def _choice_name(field_name, value) -> str | None:
    """The name of the income type or VAT area a code stands for, or None."""
    if field_name == "type":
        kind = to_decimal(value)
        # Lower case: the name stands inside the condition's sentence.
        return _lower_first(str(KINDS[kind])) if kind in KINDS else None
    if field_name == "vat_area" and isinstance(value, str):
        name = AREA_NAMES.get(value.casefold())
        return str(name) if name else None
    return None


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _literal(field_name, value) -> str:
    amount = to_decimal(value) if field_name in NUMERIC_FIELDS else None
    if amount is not None:
        return format_number(amount)
    return _("“%(value)s”", value=value_text(value))


def rule_name(rule, number: int) -> str:
    """The rule's name, or a stand-in naming it by the number the editor shows beside it."""
    name = rule.get("name") if isinstance(rule, dict) else None
    if isinstance(name, str) and name.strip():
        return name
    return _("(no name, #%(number)s)", number=number)


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
    percents = [_share(p.get("percent"), "percent") for p in parts
                if p.get("percent") is not None]
    amounts = [_share(p.get("amount"), "amount") for p in parts if p.get("percent") is None]
    if None in percents or None in amounts:
        return "error", _("Enter a share for every part.")
    fixed = format_number(sum(amounts, Decimal(0)), places=2)
    if not percents:
        return "warning", _("The parts add up to %(total)s. Only an income of exactly this gross "
                            "amount is split; any other will need review.", total=fixed)
    return _percent_check(sum(percents, Decimal(0)), fixed if amounts else None)


def _share(value, kind: str) -> Decimal | None:
    """A part's share: a number as stored, or text read as the form reads it (None when the
    form refused it: "1.000" is no share until the user says which number it is)."""
    if not isinstance(value, str):
        return to_decimal(value)
    try:
        return reader(kind)(value)
    except InputError:
        return None


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


# -- the preview: the draft over recent incomes ---------------------------------------------------

MAX_INCOMES = 2000
MONTH_CHOICES = (1, 3, 6, 12, 24)
DEFAULT_MONTHS = 3
FILTERS = ("all", "matched", "changed", "unchanged", "multiple", "ignored", "review", "none")
# The filters that part the incomes by outcome: their numbers add up to "all".
OUTCOMES = ("changed", "unchanged", "ignored", "review", "none")
# Rows a filter keeps by state: an income skipped for several matches waits for review too.
STATES = {"review": ("review", "skipped")}


@dataclass
class Row:
    """One income and what the draft would do to it."""

    income: dict
    state: str
    matched: list
    applied: str | None
    changes: list
    reason: str | None = None
    ignored_by: str | None = None
    positions: tuple = ()
    applied_position: int | None = None

    @property
    def multiple(self) -> bool:
        """Whether more than one policy matches."""
        return len(self.matched) > 1


@dataclass
class Preview:
    """Every row, the per-rule counts and the totals."""

    rows: list
    policies: list
    ignores: list
    totals: Counter
    since: date
    truncated: bool = False
    notes: list = field(default_factory=list)

    def shown(self, which: str) -> list:
        """The rows one filter keeps."""
        if which == "matched":
            return [row for row in self.rows if row.matched]
        if which == "multiple":
            return [row for row in self.rows if row.multiple]
        if which in FILTERS and which != "all":
            states = STATES.get(which, (which,))
            return [row for row in self.rows if row.state in states]
        return self.rows

    def counts(self) -> dict[str, int]:
        """How many rows each filter keeps: the number on its link is its list's length."""
        return {which: len(self.shown(which)) for which in FILTERS}


def months_ago(today: date, months: int) -> date:
    """The same day months earlier (the month's last day when it is shorter)."""
    month_index = today.year * 12 + today.month - 1 - months
    year, month = divmod(month_index, 12)
    for day in range(today.day, 0, -1):
        try:
            return date(year, month + 1, day)
        except ValueError:
            continue
    raise ValueError(today)


def fetch_incomes(api, since: date) -> tuple[list, bool]:
    """Incomes issued since the date, newest first (capped at MAX_INCOMES); whether more were
    left."""
    return upstream_incomes.issued_since(api, since, MAX_INCOMES)


def run_preview(config: dict, incomes: list, catalogs, since: date) -> Preview:
    """Evaluate config on every income; config must be valid."""
    names = [str(rule.get("name", "")) for rule in rule_list(config, "policies")]
    resolved = with_known_ids(config, catalogs)
    ensure_valid(resolved)
    rows = [_row(resolved, income, catalogs, names) for income in incomes]
    preview = Preview(rows, _policy_counts(config, rows, names), _ignore_counts(config, rows),
                      Counter(row.state for row in rows), since)
    preview.totals["multiple"] = sum(1 for row in rows if row.multiple)
    preview.notes = _notes(config, incomes)
    if preview.notes:  # counted with empty notes: say which counts the real notes may change
        for rule, count in zip(_every_rule(config), preview.policies + preview.ignores,
                               strict=True):
            count["blind"] = _reads_note(rule)
    return preview


def _every_rule(config) -> list[dict]:
    """The policies then the ignore rules, as the preview counts them."""
    return [*rule_list(config, "policies"), *rule_list(config, "ignore")]


def _reads_note(rule: dict) -> bool:
    """Whether an enabled rule has a condition on the note."""
    return rule.get("enabled", True) is not False and any(
        c.get("field") == "note" for c in rule.get("conditions") or [])


def _row(config, income, catalogs, names) -> Row:
    outcome = evaluate_valid(config, income, catalogs.currencies)
    matched = [names[i] for i in outcome.matched]
    applied = names[outcome.applied] if outcome.applied is not None else None
    reason = outcome.review_reason.text(_) if outcome.review_reason else None
    changes = change_lines(outcome.changes, catalogs, income)
    return Row(income, _state(outcome, changes), matched, applied, changes, reason,
               outcome.ignored_by, tuple(outcome.matched), outcome.applied)


def _state(outcome, changes) -> str:
    if outcome.ignored:
        return "ignored"
    if outcome.skipped_multiple:
        return "skipped"
    if outcome.needs_review:
        return "review"
    if outcome.applied is not None:
        return "changed" if changes else "unchanged"
    return "none"


def _policy_counts(config, rows, names) -> list[dict]:
    matched = Counter(position for row in rows for position in row.positions)
    applied = Counter(row.applied_position for row in rows)
    return [{"name": name, "enabled": rule.get("enabled", True) is not False,
             "matched": matched[i], "applied": applied[i]}
            for i, (name, rule) in enumerate(zip(names, rule_list(config, "policies"),
                                                 strict=True))]


def _ignore_counts(config, rows) -> list[dict]:
    ignored = Counter(row.ignored_by for row in rows if row.ignored_by)
    return [{"name": str(rule.get("name", "")), "enabled": rule.get("enabled", True) is not False,
             "matched": ignored[str(rule.get("name", ""))]}
            for rule in rule_list(config, "ignore")]


def _notes(config, incomes) -> list[str]:
    """Say where the income list cannot show what a condition looks at."""
    reads_note = any(_reads_note(rule) for rule in _every_rule(config))
    if reads_note and incomes and all("note" not in income for income in incomes):
        return [_("The income list does not include notes, so conditions on the note see an "
                  "empty note here. The accounting service sees the real note when it imports.")]
    return []


# -- what a policy changes on one income ----------------------------------------------------------

ORDER = ("revenue_type", "ledger_number", "job_number", "tags", "split")
EMPTY = "—"


@dataclass(frozen=True)
class ChangeLine:
    """One field: its label, the value before and after, and whether a record gets created."""

    label: str
    before: str
    after: str
    creates: bool = False


def change_lines(changes: dict, catalogs, income: dict) -> list[ChangeLine]:
    """Lines for the engine's {key: (before, after)}, in a fixed order."""
    code = catalogs.currencies.get(income.get("currency"))
    lines = []
    for key in ORDER:
        if key in changes:
            before, after = changes[key]
            lines.append(ChangeLine(str(TARGET_LABELS[key]), _text(key, before, catalogs, code),
                                    _text(key, after, catalogs, code),
                                    _creates(key, after, catalogs)))
    return lines


def _several(key: str, value) -> bool:
    """Several assignments with different values come as a list (tags: a list of lists)."""
    if key == "tags":
        return bool(value) and all(isinstance(item, list) for item in value)
    return isinstance(value, list)


def _text(key, value, catalogs, code) -> str:
    if key == "split":
        return " + ".join(format_amount(item, code) for item in value or []) or EMPTY
    if _several(key, value):
        return " / ".join(_change_value(key, item, catalogs) for item in value)
    return _change_value(key, value, catalogs)


def _change_value(key, value, catalogs) -> str:
    if key == "tags":
        labels = [catalogs.tags.label(tag) for tag in value or []]
        return ", ".join(labels) or EMPTY
    if value is None or value == "":
        return EMPTY
    if key == "job_number":
        return str(value)
    return catalogs.for_target(key).label(value)


def set_changes(old, new, catalogs) -> list[tuple[str, str, str]]:
    """(label, before, after) for what a policy sets differently, in words: a rule's "set"
    before and after a save (a value it no longer sets reads "(not set)")."""
    old, new = (values if isinstance(values, dict) else {} for values in (old, new))
    lines = []
    for key in ORDER:
        before, after = (_set_words(key, values.get(key), catalogs) for values in (old, new))
        if before != after:
            lines.append((str(TARGET_LABELS[key]), before, after))
    return lines


def _set_words(key, value, catalogs) -> str:
    if value is None or value == []:
        return _("(not set)")
    if key == "split":
        parts = value if isinstance(value, list) else [value]
        return " + ".join(_part_words(part, catalogs) for part in parts)
    if key == "tags" and not isinstance(value, list):
        return value_text(value)
    return _change_value(key, value, catalogs)


def _part_words(part, catalogs) -> str:
    """'70% (Termék)': the part's share, then what it sets."""
    targets = [value["text"] for item in action_items(part, catalogs) for value in item.values]
    return f"{part_share(part)} ({', '.join(targets)})" if targets else part_share(part)


def _creates(key, value, catalogs) -> bool:
    if key in ("split", "job_number"):
        return False
    items = value if isinstance(value, list) else [value]
    if key == "tags":
        items = [t for item in items for t in (item if isinstance(item, list) else [item])]
    catalog = catalogs.for_target(key)
    return any(isinstance(item, str) and catalog.status(item) == NEW for item in items)
