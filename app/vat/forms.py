"""The VAT area's URL arguments: which period a page shows and which cell it opens.

    period   2026-03 (a month), 2026-Q1 (a quarter) or 2026 (a year); missing: the company's
             current period; anything else is refused (the page says so, status 400)
    cell     incomes:<VAT category id> or expenses:<id> ("none" for no category): the
             documents behind that cell, shown under the summary
    month    the checklist's month, 2026-03 (missing: the current month)

A year outside 1..9998 is refused like any unreadable period (a neighbour must exist).
"""
from __future__ import annotations

import re
from datetime import date

from app.vat.service import (
    EXPENSES,
    FIRST_YEAR,
    INCOMES,
    LAST_YEAR,
    MONTHLY,
    QUARTERLY,
    YEARLY,
    Period,
    period_of,
)

_MONTH = re.compile(r"(\d{4})-(\d{2})")
_QUARTER = re.compile(r"(\d{4})-Q([1-4])", re.I)
_YEAR = re.compile(r"\d{4}")
_CELL = re.compile(rf"({INCOMES}|{EXPENSES}):(none|\d{{1,18}})")


class BadPeriod(ValueError):
    """The URL names no period this page can show."""


def parse_period(text: str | None, default_kind: str, today: date) -> Period:
    """The period the URL names, or the default kind's period holding today."""
    raw = (text or "").strip()
    if not raw:
        return period_of(default_kind, today)
    try:
        return _named(raw)
    except ValueError:
        raise BadPeriod(raw) from None


def _named(raw: str) -> Period:
    if match := _MONTH.fullmatch(raw):
        return period_of(MONTHLY, _first_day(match[1], int(match[2])))
    if match := _QUARTER.fullmatch(raw):
        return period_of(QUARTERLY, _first_day(match[1], int(match[2]) * 3 - 2))
    if _YEAR.fullmatch(raw):
        return period_of(YEARLY, _first_day(raw, 1))
    raise ValueError(raw)


def _first_day(year: str, month: int) -> date:
    """The month's first day; ValueError outside FIRST_YEAR..LAST_YEAR or an impossible month."""
    if not FIRST_YEAR <= int(year) <= LAST_YEAR:
        raise ValueError(year)
    return date(int(year), month, 1)


def parse_month(text: str | None, today: date) -> Period:
    """The checklist's month (YYYY-MM), or the current one."""
    raw = (text or "").strip()
    if not raw:
        return period_of(MONTHLY, today)
    match = _MONTH.fullmatch(raw)
    try:
        return period_of(MONTHLY, _first_day(match[1], int(match[2])))
    except (TypeError, ValueError):
        raise BadPeriod(raw) from None


def parse_cell(text: str | None) -> tuple[str, str] | None:
    """(side, VAT category id) of the cell the URL opens, None when none (or unreadable)."""
    match = _CELL.fullmatch((text or "").strip())
    return (match[1], match[2]) if match else None
