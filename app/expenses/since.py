"""“Changed since”: a local date-time in a chosen zone (or with its own offset) made into an
ISO 8601 timestamp with its offset, the form `updated_since` takes (spec 4.3 rules 1, 2)."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask_babel import lazy_gettext as _l

from app.numbers import DEFAULT_TIMEZONE, company_zone_name

# A "+" left unencoded in a hand-made URL arrives as a space: read it as the plus it was.
MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)"
                    r"(Z|[+\- ]\d{2}:?\d{2})?")
ZERO = ("+00:00", "-00:00")
OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})")


def _offset_label(minutes: int) -> str:
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


FIXED = tuple(_offset_label(hours * 60) for hours in range(-12, 15) if hours)


def zone_choices(current: str | None = None) -> list[tuple[str, str]]:
    """Budapest time, UTC, then whole-hour offsets (and an unusual current offset)."""
    home = company_zone_name()
    label = str(_l("Budapest time")) if home == DEFAULT_TIMEZONE else home
    choices = [(home, label)] + ([("UTC", "UTC (+00:00)")] if home != "UTC" else [])
    choices += [(offset, f"UTC{offset}") for offset in FIXED]
    if current and OFFSET.fullmatch(current) and current not in FIXED:
        choices.append((current, f"UTC{current}"))
    return choices


def split(raw: str) -> tuple[str, str | None]:
    """(local part, offset) of a value; offset None when the value carries none."""
    match = MOMENT.fullmatch((raw or "").strip())
    if not match or not match.group(3):
        return raw, None
    offset = match.group(3).replace(" ", "+")
    offset = "UTC" if offset == "Z" else _normal_offset(offset)
    return f"{match.group(1)}T{match.group(2)}", "UTC" if offset in ZERO else offset


def _normal_offset(offset: str) -> str:
    sign, hours, minutes = OFFSET.fullmatch(offset).groups()
    return f"{sign}{hours}:{minutes}"


def parse(raw: str | None, zone: str | None) -> datetime | None:
    """An aware datetime from a local date-time and a zone name or offset; None when blank."""
    text = (raw or "").strip()
    if not text:
        return None
    local, offset = split(text)
    match = MOMENT.fullmatch(local)
    if not match:
        raise ValueError(f"not a date-time: {raw!r}")
    try:
        moment = datetime.fromisoformat(f"{match.group(1)}T{match.group(2)}")
    except ValueError as exc:
        raise ValueError(f"not a date-time: {raw!r}") from exc
    return moment.replace(tzinfo=zone_info(offset or zone))


def zone_info(zone: str | None) -> tzinfo:
    """The tzinfo of a zone name (the company's, UTC) or a ±HH:MM offset; the company's by
    default."""
    if zone in (None, "", "UTC", "+00:00"):
        return UTC if zone else _named(company_zone_name())
    match = OFFSET.fullmatch(zone)
    if match:
        sign, hours, minutes = match.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes))
        return timezone(-delta if sign == "-" else delta)
    return _named(company_zone_name())


def _named(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:  # a system without tz data: Budapest's winter offset
        return timezone(timedelta(hours=1))
