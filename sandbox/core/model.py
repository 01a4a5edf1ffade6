"""Declarative base and shared column helpers."""
from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlalchemy import Numeric
from sqlalchemy.orm import DeclarativeBase

Money = Numeric(14, 2, asdecimal=True)
# The live API is a Hungarian service: a due date, "overdue" and "today" are Budapest days, as
# they are in Bookdesk (its TIMEZONE), whatever zone the machine runs in.
BUDAPEST = ZoneInfo("Europe/Budapest")


class Base(DeclarativeBase):
    """Base of every sandbox model."""


def utcnow() -> datetime:
    """Timezone-aware now in UTC."""
    return datetime.now(UTC)


def budapest_today() -> date:
    """Today's date in Budapest."""
    return datetime.now(BUDAPEST).date()


def money_str(value: Decimal | None) -> str | None:
    """Amounts travel as decimal strings with two places."""
    return None if value is None else f"{Decimal(value):.2f}"


def rate_str(value: Decimal) -> str:
    """Exchange rates travel as decimal strings with six places."""
    return f"{Decimal(value):.6f}"
