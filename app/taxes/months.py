"""Payment months as typed: `2024-03`, `2024.03.`, `2024. 03.`, or any date in the month."""
from __future__ import annotations

import re
from datetime import date

from app.numbers import parse_date

_MONTH = re.compile(r"(\d{4})\s*[.\-/]\s*(\d{1,2})\.?")


def parse_month(text: str | None) -> date | None:
    """The first day of the month `text` names; None if blank, ValueError if unreadable."""
    raw = (text or "").strip()
    if not raw:
        return None
    match = _MONTH.fullmatch(raw)
    if match is None:
        return parse_date(raw).replace(day=1)
    year, month = int(match[1]), int(match[2])
    if not 1 <= month <= 12:
        raise ValueError(f"Not a valid month: {text!r}")
    return date(year, month, 1)


def month_value(value) -> str:
    """A stored month (`2024-03-01`) as the month input's value (`2024-03`)."""
    return str(value or "")[:7]
