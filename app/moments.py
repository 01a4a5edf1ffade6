"""Timestamps in the company's time zone, and how long ago they were (Babel's words).

The zone is the `TIMEZONE` setting (`BOOKDESK_TIMEZONE`, default Europe/Budapest). Timestamps
from the API and the local store are UTC; a naive one is read as UTC. Date-only values never
come here: a day is a day in every zone (app/numbers.py format_date).
"""
from __future__ import annotations

import functools
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo

from babel.dates import format_timedelta
from flask import current_app, has_app_context

DEFAULT_TIMEZONE = "Europe/Budapest"


@functools.lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def company_zone_name() -> str:
    """The name of the company's time zone (the TIMEZONE setting)."""
    name = current_app.config.get("TIMEZONE") if has_app_context() else None
    return str(name or DEFAULT_TIMEZONE)


def company_zone() -> tzinfo:
    """The company's time zone from the configuration."""
    return _zone(company_zone_name())


def as_utc(value) -> datetime | None:
    """A datetime or ISO 8601 text as an aware datetime (naive read as UTC); None when not one."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    if not isinstance(value, datetime):
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def local_time(value) -> datetime | None:
    """The moment in the company's time zone; None when the value is not a timestamp."""
    moment = as_utc(value)
    return moment.astimezone(company_zone()) if moment else None


def relative_words(value, locale, now: datetime | None = None) -> str:
    """How long ago (or from now) a timestamp is, in the locale's words: "3 minutes ago"."""
    moment = as_utc(value)
    if moment is None:
        return ""
    delta = moment - (now or datetime.now(UTC))
    return format_timedelta(delta, add_direction=True, locale=locale)
