"""What a policy changes on one income, as "from -> to" lines for the preview."""
from __future__ import annotations

from dataclasses import dataclass

from app.numbers import format_amount
from app.policy_editor.labels import TARGET_LABELS
from app.policy_editor.refs import NEW

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
