"""Preview: the draft run over the company's recent incomes, as the engine would apply it, with
what a policy changes on each income as "from -> to" lines."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from flask_babel import gettext as _

from app.numbers import format_amount
from app.policies.editing import rule_list
from app.policies.engine import evaluate_valid
from app.policies.labels import NEW, TARGET_LABELS, with_known_ids
from app.policies.validate import ensure_valid
from app.upstream import policies as upstream

MAX_INCOMES = 2000
MONTH_CHOICES = (1, 3, 6, 12, 24)
DEFAULT_MONTHS = 3
FILTERS = ("all", "matched", "changed", "multiple", "ignored", "review", "none")
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
    return upstream.incomes_since(api, since, MAX_INCOMES)


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
    return preview


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
    fields = {c.get("field") for key in ("policies", "ignore") for rule in rule_list(config, key)
              if rule.get("enabled", True) is not False for c in rule.get("conditions") or []}
    if "note" in fields and incomes and all("note" not in income for income in incomes):
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
        return " / ".join(_one(key, item, catalogs) for item in value)
    return _one(key, value, catalogs)


def _one(key, value, catalogs) -> str:
    if key == "tags":
        labels = [catalogs.tags.label(tag) for tag in value or []]
        return ", ".join(labels) or EMPTY
    if value is None or value == "":
        return EMPTY
    if key == "job_number":
        return str(value)
    return catalogs.for_target(key).label(value)


def _creates(key, value, catalogs) -> bool:
    if key in ("split", "job_number"):
        return False
    items = value if isinstance(value, list) else [value]
    if key == "tags":
        items = [t for item in items for t in (item if isinstance(item, list) else [item])]
    catalog = catalogs.for_target(key)
    return any(isinstance(item, str) and catalog.status(item) == NEW for item in items)
