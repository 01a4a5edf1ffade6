"""What the catalogue pages show beyond the records: a bulk delete's report in words (names
instead of ids, where an entry is used), and the document list's filters, cursors, file sizes
and links to the records documents are attached to."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from flask_babel import lazy_gettext as _l

from app.catalog.service import DeleteResult
from app.numbers import format_number

# Record kinds, from the names the API gives the places that refer to an entry.
PLACES = (("income_polic", _l("income policies")), ("income", _l("incomes")),
          ("expense", _l("expenses")), ("tax", _l("taxes")), ("salar", _l("salaries")))
REASONS = {"in_use": _l("in use"),
           "not_found": _l("not found (deleted meanwhile or another company's)")}


@dataclass
class Line:
    """One entry of a report: its name and, for kept entries, why and where."""

    name: str
    reason: Any = None
    where: list = field(default_factory=list)


@dataclass
class Report:
    """A delete report: the entries deleted and the entries kept."""

    deleted: list[Line]
    kept: list[Line]


def place_label(place: str) -> Any:
    """A readable name for a place that refers to an entry (income_tag -> incomes)."""
    for prefix, label in PLACES:
        if place.startswith(prefix):
            return label
    return place.replace("_", " ")


def places(raw: list[str]) -> list:
    """Readable places, each once, in the order first met."""
    seen: dict[str, Any] = {}
    for place in raw:
        label = place_label(place)
        seen.setdefault(str(label), label)
    return list(seen.values())


def delete_report(result: DeleteResult, names: dict[int, str]) -> Report:
    """The report of a bulk delete, naming every entry."""
    kept = [Line(_name(names, i), REASONS.get(reason, reason), places(result.where.get(i, [])))
            for i, reason in result.kept.items()]
    return Report([Line(_name(names, i)) for i in result.deleted], kept)


def _name(names: dict[int, str], item_id: int) -> str:
    return names.get(item_id) or f"#{item_id}"


FILTERS = (("", _l("All documents")), ("true", _l("Attached to a record")),
           ("false", _l("Not attached")))
RECORD_PAGES = {"income": ("incomes.detail", "income_id"),
                "expense": ("expenses.detail", "expense_id")}


def record_url(target: dict | None) -> str | None:
    """The Bookdesk page of the record a document is attached to."""
    if not isinstance(target, dict) or target.get("type") not in RECORD_PAGES:
        return None
    if isinstance(target.get("id"), bool) or not isinstance(target.get("id"), int):
        return None
    endpoint, key = RECORD_PAGES[target["type"]]
    return url_for(endpoint, **{key: target["id"]})


def size_label(size) -> str:
    """A file size in kB or MB."""
    if not isinstance(size, int):
        return "—"
    if size >= 1024 * 1024:
        return f"{format_number(size / (1024 * 1024), places=1)} MB"
    return f"{format_number(max(size / 1024, 0.1), places=1)} kB"
