"""Query-string filters as the live API reads them (DRF django-filter style).

A multi-value filter may come as repeated keys (`k=a&k=b`), as a comma list (`k=a,b`) or both;
every value counts. An empty value is the same as an absent filter. A malformed value is a 400
keyed by the parameter; unknown parameters are never looked at, so they are ignored.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from flask import request
from sqlalchemy import func
from sqlalchemy.sql import ColumnElement

from sandbox.core.errors import validation_error

TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")
BOOL_MSG = "Select a valid choice. Use true or false."
INT_MSG = "Enter a whole number."
NUMBER_MSG = "Enter a number."
DATE_MSG = "Enter a valid date."
# Amount filters compare with Numeric(14, 2) columns: beyond 12 integer digits nothing matches.
MAX_AMOUNT = Decimal(10) ** 12


def values(name: str) -> list[str]:
    """Every value of a multi-value filter: repeated keys and comma lists, stripped, non-empty."""
    found = []
    for raw in request.args.getlist(name):
        found += [part.strip() for part in raw.split(",") if part.strip()]
    return found


def text(name: str) -> str | None:
    """A single text filter (the first value), stripped; None when absent or blank."""
    raw = (request.args.get(name) or "").strip()
    return raw or None


def flag(name: str) -> bool | None:
    """A true/false filter; None when absent, 400 when it is neither."""
    raw = text(name)
    if raw is None:
        return None
    if raw.lower() in TRUE_WORDS:
        return True
    if raw.lower() in FALSE_WORDS:
        return False
    raise validation_error({name: [BOOL_MSG]})


def integers(name: str) -> list[int]:
    """Every value of an integer filter (ids, codes); 400 when one is not a whole number."""
    found = values(name)
    if not all(part.isdecimal() and len(part) <= 18 for part in found):
        raise validation_error({name: [INT_MSG]})
    return [int(part) for part in found]


def amount(name: str) -> Decimal | None:
    """A decimal amount filter; None when absent, 400 when it is no finite number."""
    raw = text(name)
    if raw is None:
        return None
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise validation_error({name: [NUMBER_MSG]}) from None
    if not value.is_finite() or abs(value) >= MAX_AMOUNT:
        raise validation_error({name: [NUMBER_MSG]})
    return value


def day(name: str) -> date | None:
    """A YYYY-MM-DD filter (an ISO timestamp is cut to its date); 400 when it is no date."""
    raw = text(name)
    if raw is None:
        return None
    try:
        if len(raw) == 10:
            return date.fromisoformat(raw)
        return datetime.fromisoformat(raw.replace("Z", "+00:00")).date()
    except ValueError:
        raise validation_error({name: [DATE_MSG]}) from None


def contains(column, needle: str) -> ColumnElement:
    """Case-insensitive substring match (DRF icontains): Unicode-folded, % and _ literal."""
    return func.casefold(column).contains(needle.casefold(), autoescape=True)
