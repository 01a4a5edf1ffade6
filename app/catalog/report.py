"""What a bulk delete or rename did, in words: names instead of ids, where an entry is used."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from app.catalog.named import DeleteResult

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
