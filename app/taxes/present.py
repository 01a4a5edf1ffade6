"""The monthly listing made ready for the page: month words, tag names, sources, totals."""
from __future__ import annotations

from decimal import Decimal

from app.numbers import to_decimal
from app.taxes.edit import is_synced
from app.taxes.kinds import Kind
from app.taxes.labels import month_label, source_label
from app.upstream import id_names

# With more months than this, only the newest is open when the page loads.
OPEN_ALL_UP_TO = 3


def months(body: dict, kind: Kind, opened: set[str] = frozenset()) -> list[dict]:
    """The listing's months, newest first, each with its records ready to show.

    Months in `opened` (YYYY-MM) start open; with none, all do when there are few.
    """
    names = id_names(body.get("tags") or [])
    result = []
    for month in body.get(kind.monthly_key) or []:
        for tag in month.get("tags") or []:
            names.setdefault(tag.get("id"), tag.get("name"))
        result.append({**month, "label": month_label(month.get("month")),
                       "records": [_record(r, names) for r in month.get(kind.name) or []]})
    result.sort(key=lambda month: str(month.get("month")), reverse=True)
    for number, month in enumerate(result):
        key = str(month.get("month"))[:7]
        month["open"] = key in opened if opened else (len(result) <= OPEN_ALL_UP_TO or
                                                      number == 0)
    return result


def _record(record: dict, names: dict) -> dict:
    return {**record, "synced": is_synced(record),
            "source_label": source_label(record.get("source")),
            "tag_names": [names.get(i, f"#{i}") for i in record.get("tags") or []],
            "simple_tag_names": [names.get(i, f"#{i}") for i in record.get("simple_tags") or []]}


def total(month_list: list[dict]) -> Decimal:
    """The sum of the months' totals."""
    amounts = (to_decimal(month.get("amount")) or Decimal(0) for month in month_list)
    return sum(amounts, Decimal(0))


def selected(body: dict, kind: Kind, ids: list[int]) -> list[dict]:
    """The listing's records among `ids`, in the listing's order."""
    wanted = set(ids)
    return [record for month in body.get(kind.monthly_key) or []
            for record in month.get(kind.name) or [] if record.get("id") in wanted]

