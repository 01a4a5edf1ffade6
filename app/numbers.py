"""Numbers, amounts, percentages and dates, read and written by locale: the one module for both.

Reading is strict: text that two conventions read as different numbers is refused, and nothing
is rounded or clipped. The accepted and refused forms are the table in docs/number-input.md
(tests/app/test_number_input_table.py checks every row). Hungarian writes a decimal comma and
groups by space, no-break space or dot; English writes a decimal point and groups by comma.

Timestamps are shown in the company's time zone: the `TIMEZONE` setting (`BOOKDESK_TIMEZONE`,
default Europe/Budapest). Timestamps from the API and the local store are UTC; a naive one is
read as UTC. A date-only value is a day in every zone and is never shifted.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, tzinfo
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date as babel_date
from babel.dates import format_skeleton, format_timedelta, get_datetime_format
from babel.dates import format_time as babel_time
from babel.numbers import (
    format_decimal,
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    parse_pattern,
)
from babel.numbers import (
    format_percent as babel_percent,
)
from flask import current_app, has_app_context
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

DEFAULT_TIMEZONE = "Europe/Budapest"
SPACES = " \u00a0\u202f\u2009\u2007"
MINUSES = "-\u2212"
# The API stores amounts as Numeric(14, 2): twelve digits before the point, two after.
AMOUNT_PLACES = 2
INTEGER_DIGITS = 12
AMOUNT_MAX = Decimal("999999999999.99")
DATE_FORMATS = {"hu": "short", "en": "medium"}
# Hungarian bookkeeping shows forints whole; an amount that carries fillér shows them, so a
# shown amount is always the stored one (138 997,69 Ft is never shown as 138 998 Ft).
WHOLE_CURRENCIES = {"HUF"}
# ISO 4217 minor units where CLDR differs: CLDR 47 (Babel 2.19) gives HUF 0 digits, its cash
# rounding; invoices and the API keep fillér, so typed HUF amounts may carry two decimals.
ISO_MINOR_UNITS = {"HUF": 2}
_SPACE_RUN = re.compile(f"[{SPACES}]")
_FRACTION = re.compile(r"[0-9]+")


class InputError(ValueError):
    """Typed text that is refused; `message` says how to write it (lazy, translated), `reason`
    names the rule: not-a-number, ambiguous, places, digits, maximum, minimum, date."""

    def __init__(self, message, reason: str = "not-a-number") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason

    def __str__(self) -> str:
        return str(self.message)


def locale_of(locale=None) -> Locale:
    """The Babel locale: the one given, else the request's, else the configured default."""
    if locale is not None:
        return _parsed_locale(str(locale))
    current = get_locale()
    if current is not None:
        return current
    default = current_app.config["DEFAULT_LOCALE"] if has_app_context() else "hu"
    return _parsed_locale(default)


@functools.lru_cache(maxsize=16)
def _parsed_locale(name: str) -> Locale:
    return Locale.parse(name)


def to_decimal(value) -> Decimal | None:
    """An upstream value (decimal string, int, float or Decimal) as a finite Decimal, else None."""
    if type(value) is str and len(value) <= CACHED_TEXT_LENGTH:
        return _decimal_of_text(value)
    return _decimal(value)


# A review queue reads the same few hundred amount strings many times (rows, policies,
# fingerprints); a Decimal is immutable, so one parse serves them all. Text only: 1 and 1.0,
# or Decimal("1") and Decimal("1.0"), are equal keys but different Decimals.
CACHED_TEXT_LENGTH = 40


@functools.lru_cache(maxsize=4096)
def _decimal_of_text(text: str) -> Decimal | None:
    return _decimal(text)


def _decimal(value) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        # repr() keeps 0.1 as 0.1 instead of its binary expansion.
        number = Decimal(repr(value) if isinstance(value, float) else value)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


# -- reading ---------------------------------------------------------------------------------

def marks(locale=None) -> tuple[str, str]:
    """(decimal mark, grouping mark besides spaces) of a locale: hu (",", "."), en (".", ",")."""
    decimal = get_decimal_symbol(locale_of(locale))
    return decimal, "." if decimal == "," else ","


def parse_number(text, locale=None, *, places=None, minimum=None, maximum=None) -> Decimal | None:
    """Read a typed number by the page's locale; None when blank, InputError when refused."""
    raw = _SPACE_RUN.sub(" ", str(text or "")).strip()
    if not raw:
        return None
    fits = functools.partial(_fits, places=places, minimum=minimum, maximum=maximum,
                             locale=locale)
    value = _read_signed(raw, locale, places, fits)
    _check_places(value, places)
    _check_range(value, minimum, maximum, locale)
    return value


def parse_amount(text, currency=None, locale=None, *, minimum=None,
                 maximum=None) -> Decimal | None:
    """Read a typed amount (the currency's symbol or code may be part of it); two decimals at
    most, or fewer when the currency has fewer; at most twelve digits before the point."""
    raw = _without_currency(str(text or ""), currency, locale)
    low = -AMOUNT_MAX if minimum is None else minimum
    high = AMOUNT_MAX if maximum is None else maximum
    try:
        return parse_number(raw, locale, places=amount_places(currency), minimum=low,
                            maximum=high)
    except InputError as error:
        if error.reason != "not-a-number":
            raise
        raise InputError(_l("Enter an amount, e.g. %(example)s.",
                            example=format_number(Decimal("1234.5"), locale, places=2))) from None


def parse_percent(text, locale=None, *, places=2) -> Decimal | None:
    """Read a percentage between 0 and 100 (27, 5,5 or 27 %); the number of percent."""
    raw = str(text or "").strip().removesuffix("%")
    try:
        return parse_number(raw, locale, places=places, minimum=Decimal(0), maximum=Decimal(100))
    except InputError as error:
        if error.reason in ("ambiguous", "places"):
            raise
        raise InputError(percent_hint(locale), error.reason) from None


def percent_hint(locale=None):
    """The message for a percentage that is not one, its example in the page's notation."""
    return _l("Enter a percentage between 0 and 100, e.g. 27 or %(example)s.",
              example=format_number(Decimal("5.5"), locale))


def amount_places(currency=None) -> int:
    """Decimals an amount of the currency may have: the currency's, at most the API's two."""
    if not currency:
        return AMOUNT_PLACES
    code = str(currency).upper()
    return min(AMOUNT_PLACES, ISO_MINOR_UNITS.get(code) or get_currency_precision(code))


def _without_currency(text: str, currency, locale) -> str:
    # Only at either end, after a leading minus: "1Ft234" is not 1234.
    if not currency:
        return text
    code = str(currency).upper()
    body = text.strip()
    minus = body[:1] if body[:1] in MINUSES else ""
    body = body.removeprefix(minus).strip()
    for mark in (get_currency_symbol(code, locale_of(locale)), code):
        body = body.removeprefix(mark).removesuffix(mark).strip()
    return minus + body


def _read_signed(raw: str, locale, places: int | None,
                 fits: Callable[[Decimal], bool]) -> Decimal:
    negative = raw[0] in MINUSES
    body = raw[1:].lstrip() if raw[0] in MINUSES + "+" else raw
    value = _signed(_read(raw, body, negative, locale, places, fits), negative)
    return value if value else abs(value)  # "-0" is zero, not a negative zero


def _signed(value: Decimal, negative: bool) -> Decimal:
    # copy_negate is exact; `-value` and `-1 * value` round to the context's 28 digits, which
    # would turn 12,999999999999999999999999999 into 13 before the decimal-places check.
    return value.copy_negate() if negative else value


def _read(raw: str, body: str, negative: bool, locale, places: int | None,
          fits: Callable[[Decimal], bool]) -> Decimal:
    decimal, group = marks(locale)
    value = _reading(body, decimal, group)
    other = _reading(body, group, decimal)
    if value is None and other is None:
        raise InputError(_l("Enter a number, e.g. %(example)s.",
                            example=format_number(Decimal("1234.5"), locale, places=2)))
    if value is None:
        value = _mixed_groups(body, group)
        if value is None:
            return other
    if other is not None and other != value and (
            decimal not in body or _zeros_past(body, decimal, places, fits(value))):
        _refuse_two_ways(raw, [value, other], negative, locale, places, fits)
    return value


def _zeros_past(body: str, decimal: str, places: int | None, page_reading_fits: bool) -> bool:
    # 100,000 in a two-place field: the page's reading only holds because the third decimal is
    # a zero, so nobody writes it meaning 100; the other convention's 100000 is as likely.
    return page_reading_fits and places is not None and len(body.rpartition(decimal)[2]) > places


def _refuse_two_ways(raw: str, readings: list, negative: bool, locale, places: int | None,
                     fits) -> None:
    """Refuse text two conventions read differently, naming the spellings the field takes;
    when it takes neither, return: the page's reading is then refused for its own fault."""
    spelled = [plain(_at_places(_signed(r, negative), places), locale) for r in readings
               if fits(_signed(r, negative))]
    if not spelled:
        return
    if len(spelled) == 1:
        raise InputError(_l("“%(text)s” can be read two ways. Write %(first)s if that is the "
                            "number you mean.", text=raw, first=spelled[0]), "ambiguous")
    raise InputError(_l("“%(text)s” can be read two ways. Write %(first)s or %(second)s.",
                        text=raw, first=spelled[0], second=spelled[1]), "ambiguous")


def _reading(body: str, decimal: str, group: str) -> Decimal | None:
    """The value under one convention, None when the text is not written that way."""
    whole, mark, fraction = body.partition(decimal)
    if mark and not _FRACTION.fullmatch(fraction):
        return None
    if not (_whole_ok(whole, group) or (mark and whole == "")):
        return None
    digits = whole.replace(" ", "").replace(group, "") or "0"
    return Decimal(f"{digits}.{fraction}" if mark else digits)


@functools.lru_cache(maxsize=4)
def _grouped(group: str) -> re.Pattern:
    # One separator kind throughout, the first group 1-3 digits not starting with 0, then threes.
    return re.compile(r"[0-9]+|[1-9][0-9]{0,2}(?:([ " + re.escape(group) + r"])[0-9]{3})"
                      r"(?:\1[0-9]{3})*")


def _whole_ok(whole: str, group: str) -> bool:
    return bool(_grouped(group).fullmatch(whole))


def _mixed_groups(body: str, group: str) -> Decimal | None:
    """The whole number meant by groups of three split by spaces and the group mark mixed
    (1 234.567 on a Hungarian page), which the other convention reads with a decimal."""
    if re.fullmatch(r"[1-9][0-9]{0,2}(?:[ " + re.escape(group) + r"][0-9]{3})+", body):
        return Decimal(body.replace(" ", "").replace(group, ""))
    return None


def _at_places(value: Decimal, places: int | None) -> Decimal:
    """A value that fits its field, without the zeros typed past the field's places."""
    if places is None or -value.as_tuple().exponent <= places:
        return value
    return value.quantize(Decimal(1).scaleb(-places))


def _check_places(value: Decimal, places: int | None) -> None:
    if places is None or _extra_places_are_zero(value, places):
        return
    if places == 0:
        raise InputError(_l("Enter a whole number."), "places")
    raise InputError(_l("Enter at most %(places)d decimal places.", places=places), "places")


def _extra_places_are_zero(value: Decimal, places: int) -> bool:
    # Read from the digits, not by quantize: quantize overflows the context for 40-digit input.
    sign, digits, exponent = value.as_tuple()
    extra = -exponent - places
    return extra <= 0 or not any(digits[len(digits) - extra:])


def _fits(value: Decimal, places: int | None, minimum, maximum, locale) -> bool:
    """Whether a field with these places and bounds takes the value (its own checks pass)."""
    try:
        _check_places(value, places)
        _check_range(value, minimum, maximum, locale)
    except InputError:
        return False
    return True


def _check_range(value: Decimal, minimum, maximum, locale) -> None:
    if value.adjusted() >= INTEGER_DIGITS:
        raise InputError(_l("Enter at most %(digits)d digits before the decimal mark.",
                            digits=INTEGER_DIGITS), "digits")
    if maximum is not None and value > maximum:
        raise InputError(_l("Enter at most %(maximum)s.",
                            maximum=format_number(maximum, locale)), "maximum")
    if minimum is not None and value < minimum:
        raise InputError(_l("Enter at least %(minimum)s.",
                            minimum=format_number(minimum, locale)), "minimum")


def plain(value: Decimal, locale=None) -> str:
    """A number without grouping, with the locale's decimal mark: the unambiguous spelling."""
    return format(value, "f").replace(".", marks(locale)[0])


# -- dates -----------------------------------------------------------------------------------

_NUMERIC_DAY = re.compile(r"([0-9]{4})\s*[.\-/]\s*([0-9]{1,2})\s*[.\-/]\s*([0-9]{1,2})\.?")
_HU_NAMED_DAY = re.compile(r"([0-9]{4})\.\s*([^\W\d_]+)\.?\s*([0-9]{1,2})\.?")
_EN_NAMED_DAY = re.compile(r"([^\W\d_]+)\.?\s+([0-9]{1,2}),?\s+([0-9]{4})")


def parse_date(text, locale=None) -> date | None:
    """Read a day: 2024-03-05, 2024.03.05., 2024. 03. 05., 2024/03/05, or the locale's written
    form with a month name (2024. márc. 5., Mar 5, 2024); None when blank."""
    raw = _SPACE_RUN.sub(" ", str(text or "")).strip()
    if not raw:
        return None
    chosen = locale_of(locale)
    parts = _day_parts(raw, chosen)
    try:
        return date(*parts) if parts else _refuse_date(chosen)
    except ValueError:
        return _refuse_date(chosen)


def _day_parts(raw: str, locale: Locale) -> tuple[int, int, int] | None:
    if match := _NUMERIC_DAY.fullmatch(raw):
        return tuple(int(part) for part in match.groups())
    if (match := _HU_NAMED_DAY.fullmatch(raw)) and (month := _month(match[2], locale)):
        return int(match[1]), month, int(match[3])
    if (match := _EN_NAMED_DAY.fullmatch(raw)) and (month := _month(match[1], locale)):
        return int(match[3]), month, int(match[2])
    return None


def _month(name: str, locale: Locale) -> int | None:
    return _month_names(str(locale)).get(name.lower().rstrip("."))


@functools.lru_cache(maxsize=8)
def _month_names(locale_name: str) -> dict[str, int]:
    months = _parsed_locale(locale_name).months
    return {str(name).lower().rstrip("."): number for context in ("format", "stand-alone")
            for width in ("abbreviated", "wide") for number, name in months[context][width].items()}


def _refuse_date(locale: Locale):
    raise InputError(_l("Enter a date, e.g. %(example)s.",
                        example=format_date(EXAMPLE_DAY, locale)), "date")


# -- months and moments typed in filters -----------------------------------------------------

_NUMERIC_MONTH = re.compile(r"([0-9]{4})\s*[.\-/]\s*([0-9]{1,2})\.?")
_HU_NAMED_MONTH = re.compile(r"([0-9]{4})\.?\s*([^\W\d_]+)\.?")
_EN_NAMED_MONTH = re.compile(r"([^\W\d_]+)\.?,?\s+([0-9]{4})")
# The day, then the time (hours:minutes, seconds optional) and a day period (AM, du.) or none.
_MOMENT = re.compile(r"(?P<day>.+?)(?:[T ,]\s*|,\s*)(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2})"
                     r"(?::(?P<second>[0-9]{2})(?P<fraction>\.[0-9]{1,6})?)?(?:\s*(?P<period>[^\W\d_]+\.?))?")
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
EXAMPLE_MOMENT = datetime(2024, 3, 5, 14, 30)
EXAMPLE_DAY = EXAMPLE_MOMENT.date()  # the day fields' placeholder and their refusal's example


def parse_month(text, locale=None) -> date | None:
    """Read a month as its first day: 2024-03, 2024. 03., the locale's month name (2024.
    március, March 2024) or any day in it; None when blank."""
    raw = _SPACE_RUN.sub(" ", str(text or "")).strip()
    if not raw:
        return None
    chosen = locale_of(locale)
    try:
        if parts := _month_parts(raw, chosen):
            return date(*parts, 1)
        if parts := _day_parts(raw, chosen):
            return date(*parts).replace(day=1)  # a day that does not exist is refused
    except ValueError:
        pass
    return _refuse_month(chosen)


def _month_parts(raw: str, locale: Locale) -> tuple[int, int] | None:
    if match := _NUMERIC_MONTH.fullmatch(raw):
        return int(match[1]), int(match[2])
    if (match := _HU_NAMED_MONTH.fullmatch(raw)) and (month := _month(match[2], locale)):
        return int(match[1]), month
    if (match := _EN_NAMED_MONTH.fullmatch(raw)) and (month := _month(match[1], locale)):
        return int(match[2]), month
    return None


def _refuse_month(locale: Locale):
    raise InputError(_l("Enter a month, e.g. %(example)s.",
                        example=format_month(date(2024, 3, 1), locale)), "date")


def format_month(value, locale=None) -> str:
    """A month in words by CLDR (2024. március, March 2024); "" when the value is not a day."""
    text = value.strip()[:10] if isinstance(value, str) else value
    day = as_day(text + "-01" if isinstance(text, str) and len(text) == 7 else text)
    return _format_month(day.replace(day=1), locale_of(locale)) if day else ""


@functools.lru_cache(maxsize=1024)
def _format_month(day: date, locale: Locale) -> str:
    return format_skeleton("yMMMM", day, locale=locale)


def month_key(day: date | None) -> str:
    """A month as the URLs write it: YYYY-MM ("" for none), the same in every language."""
    return day.isoformat()[:7] if day else ""


def moment_key(moment: datetime | None) -> str:
    """A wall-clock moment as URLs write it: 2024-03-05T14:30 (seconds when it has some)."""
    if moment is None:
        return ""
    return moment.isoformat(timespec="minutes" if not moment.second + moment.microsecond
                            else "auto")


def parse_moment(text, locale=None) -> datetime | None:
    """Read a wall-clock date and time (naive): the locale's own (2024. 03. 05. 14:30, Mar 5,
    2024, 2:30 PM), ISO 8601 (2024-03-05T14:30) or a day alone (midnight); None when blank.
    An hour a 12-hour clock reads two ways (2:30 without AM or PM) is refused."""
    raw = _SPACE_RUN.sub(" ", str(text or "")).strip()
    if not raw:
        return None
    chosen = locale_of(locale)
    match = _MOMENT.fullmatch(raw)
    try:
        if match is None:
            return datetime.combine(parse_date(raw, chosen), time())
        day = parse_date(match["day"].rstrip(" ,"), chosen)
        return datetime.combine(day, _clock(match, raw, chosen))
    except ValueError as error:
        if getattr(error, "reason", None) == "ambiguous":
            raise
        raise InputError(_l("Enter a date and time, e.g. %(example)s.",
                            example=format_moment(EXAMPLE_MOMENT, chosen)), "date") from None


def _clock(match: re.Match, raw: str, locale: Locale) -> time:
    hour, minute, second = (int(match[name] or 0) for name in ("hour", "minute", "second"))
    period, fraction = match["period"], int((match["fraction"] or ".")[1:].ljust(6, "0"))
    if period is not None:
        return time(_twelve_hour(hour, period, locale), minute, second, fraction)
    if _is_ambiguous(match, locale):
        morning, evening = (_clock_text(time(hour % 12 + half, minute, second), locale)
                            for half in (0, 12))
        raise InputError(_l("“%(text)s” can be read two ways. Write %(first)s or %(second)s.",
                            text=raw, first=morning, second=evening), "ambiguous")
    return time(hour, minute, second, fraction)


def _is_ambiguous(match: re.Match, locale: Locale) -> bool:
    """True for 1-12 o'clock without a day period where the locale writes a 12-hour clock
    (after an ISO day, 2024-03-05 10:00, the clock is ISO's 24 hours)."""
    twelve = "h" in locale.time_formats["short"].pattern
    iso = _ISO_DAY.fullmatch(match["day"].rstrip(" ,"))
    return twelve and not iso and match["period"] is None and 1 <= int(match["hour"]) <= 12


def _twelve_hour(hour: int, period: str, locale: Locale) -> int:
    names = _day_periods(str(locale))
    half = names.get(period.casefold().rstrip("."))
    if half is None or not 1 <= hour <= 12:
        raise ValueError(f"not a time: {hour} {period}")
    return hour % 12 + (12 if half == "pm" else 0)


@functools.lru_cache(maxsize=8)
def _day_periods(locale_name: str) -> dict[str, str]:
    names = {"am": "am", "pm": "pm"}
    periods = _parsed_locale(locale_name).day_periods["format"]
    for width in ("abbreviated", "wide", "narrow"):
        for half in ("am", "pm"):
            if half in periods.get(width, {}):
                names[str(periods[width][half]).casefold().rstrip(".")] = half
    return names


def format_moment(value: datetime, locale=None) -> str:
    """A wall-clock date and time as its input shows it, read back by parse_moment: the day
    as the day fields write it, the locale's short time (seconds only when there are some),
    joined by the locale's pattern: 2024. 03. 05. 14:30, Mar 5, 2024, 2:30 PM."""
    chosen = locale_of(locale)
    day = _format_day(value.date(), DATE_FORMATS.get(chosen.language, "medium"), chosen)
    joined = get_datetime_format("short", locale=chosen).replace("{1}", day)
    return joined.replace("{0}", _clock_text(value.time(), chosen))


def _clock_text(clock: time, locale: Locale) -> str:
    text = babel_time(clock.replace(microsecond=0), "medium" if clock.second else "short",
                      locale=locale)
    return _SPACE_RUN.sub(" ", text)


# -- writing ---------------------------------------------------------------------------------

def format_number(value, locale=None, *, places=None, grouping=True) -> str:
    """A number with the locale's marks; `places` fixes the decimals (rounded half up), else
    every significant decimal is written. grouping=False for form inputs."""
    number = to_decimal(value)
    if number is None:
        return ""
    if places is not None:
        number = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    pattern = ("#,##0" if grouping else "0") + ("." + "0" * places if places else "")
    return format_decimal(number, format=pattern, locale=locale_of(locale),
                          decimal_quantization=places is not None)


def api_text(value, places: int | None = AMOUNT_PLACES) -> str | None:
    """A number as the API writes it: a decimal point, no grouping, `places` decimals (rounded
    half up; None keeps the number's own), never a negative zero; None when not a number."""
    number = to_decimal(value)
    if number is None:
        return None
    if places is not None:
        number = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return format(number if number else abs(number), "f")


def at_least_places(value, places: int = AMOUNT_PLACES) -> Decimal | None:
    """A number with at least `places` decimals (more are kept, never rounded); None when not
    a number."""
    number = to_decimal(value)
    if number is None or number.as_tuple().exponent <= -places:
        return number
    return number.quantize(Decimal(1).scaleb(-places))


def at_rate(value: Decimal, rate: Decimal, currency: str = "HUF") -> Decimal:
    """An amount converted at an exchange rate, rounded half up to the fillér (the currency's
    minor unit): each converted amount is kept as it is shown, so they add up to their total."""
    step = Decimal(1).scaleb(-amount_places(currency))
    return (value * rate).quantize(step, rounding=ROUND_HALF_UP)


def at_rate_parts(values: list[Decimal], rate: Decimal, currency: str = "HUF") -> list[Decimal]:
    """Parts of one amount converted at a rate so that they add up to the amount converted:
    each part is what it adds to the running sum converted (at most a unit from its own)."""
    parts, running, before = [], Decimal(0), Decimal(0)
    for value in values:
        running += value
        converted = at_rate(running, rate, currency)
        parts.append(converted - before)
        before = converted
    return parts


def format_amount(value, currency=None, locale=None) -> str:
    """An amount in a currency for the locale (forints whole unless they carry fillér); no
    currency: two decimals."""
    number = to_decimal(value)
    if number is None:
        return ""
    if not currency:
        return format_number(number, locale, places=AMOUNT_PLACES)
    return currency_format(str(locale_of(locale)), str(currency).upper()).apply(number)


def currency_name(code, fallback: str = "", locale=None) -> str:
    """A currency's name in the locale from CLDR (euró / Euro); the fallback when CLDR has none."""
    text = str(code or "").upper()
    name = get_currency_name(text, locale=locale_of(locale)) if len(text) == 3 else ""
    return name if name and name != text else (fallback or text)


def format_percent(value, locale=None) -> str:
    """A number of percent in the locale's CLDR pattern (27 -> 27%), decimals as they are."""
    number = to_decimal(value)
    if number is None:
        return ""
    return babel_percent(number.normalize() / 100, locale=locale_of(locale),
                         decimal_quantization=False)


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


def company_today() -> date:
    """Today's date in the company's time zone (what "due" and "overdue" are measured in)."""
    return datetime.now(company_zone()).date()


def days_between(earlier, later) -> int | None:
    """Whole days from one ISO date (or date) to another; None when either is missing."""
    start, end = as_day(earlier), as_day(later)
    return (end - start).days if start and end else None


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


def format_date(value, locale=None, fmt: str | None = None) -> str:
    """A day for the locale (hu short `2024. 03. 05.`, en medium): a date-only value as it is,
    a timestamp as its day in the company's time zone."""
    day = as_day(value)
    if day is None:
        return "" if not value else str(value)
    chosen = locale_of(locale)
    return _format_day(day, fmt or DATE_FORMATS.get(chosen.language, "medium"), chosen)


@functools.lru_cache(maxsize=8192)
def _format_day(day: date, fmt: str, locale: Locale) -> str:
    # Babel takes ~12 µs a date and lists show the same few hundred days again and again.
    return babel_date(day, fmt, locale=locale)


def as_day(value) -> date | None:
    """A date-only value as it is, a timestamp as its day in the company's time zone."""
    if isinstance(value, datetime) or (isinstance(value, str) and len(value) > 10):
        moment = local_time(value)
        return moment.date() if moment else None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def format_datetime(value, locale=None) -> str:
    """A timestamp in the company's time zone for the locale: its day as every date is shown
    and the short time (2024. 03. 05. 14:30, Mar 5, 2024, 2:30 PM); text that is none is kept."""
    moment = local_time(value)
    if moment is None:
        return "" if value is None else str(value)
    return format_moment(moment.replace(second=0, microsecond=0), locale)


def format_relative(value, locale=None, now: datetime | None = None) -> str:
    """How long ago a timestamp is in the locale's words ("3 perccel ezelőtt", "3 minutes ago")."""
    return relative_words(value, locale_of(locale), now)


# -- amounts in long lists: the currency pattern worked out once, then plain string formatting --
@dataclass(frozen=True)
class CurrencyFormat:
    """One locale's way of writing amounts of one currency."""

    prefixes: tuple[str, str]
    suffixes: tuple[str, str]
    separators: dict
    digits: int
    minor: int

    def apply(self, value: Decimal) -> str:
        """Round half up to the currency's minor unit and write it with sign, symbol and
        separators; a whole amount of a whole-shown currency (forints) without decimals."""
        value = value.quantize(Decimal(1).scaleb(-self.minor), rounding=ROUND_HALF_UP)
        digits = self.digits if value == value.to_integral_value() else self.minor
        negative = int(value.is_signed())
        body = f"{abs(value):,.{digits}f}".translate(self.separators)
        return f"{self.prefixes[negative]}{body}{self.suffixes[negative]}"


@functools.lru_cache(maxsize=256)
def currency_format(locale_name: str, code: str) -> CurrencyFormat:
    """The format of `code` amounts in `locale_name`, derived from CLDR once."""
    locale = Locale.parse(locale_name)
    minor = amount_places(code)
    digits = 0 if code in WHOLE_CURRENCIES else minor
    standard = locale.currency_formats["standard"].pattern
    pattern = parse_pattern(re.sub(r"0\.0+", "0." + "0" * digits if digits else "0", standard))
    symbol = get_currency_symbol(code, locale)
    separators = str.maketrans({",": get_group_symbol(locale), ".": get_decimal_symbol(locale)})
    return CurrencyFormat(tuple(_spaced(p, symbol, before=True) for p in pattern.prefix),
                          tuple(_spaced(s, symbol, before=False) for s in pattern.suffix),
                          separators, digits, minor)


def _spaced(affix: str, symbol: str, *, before: bool) -> str:
    """CLDR currencySpacing (Babel leaves it out): a symbol that is not a sign itself, e.g. the
    code HUF, is kept apart from the digits by a no-break space ("HUF 1,234", not "HUF1,234")."""
    if "¤" not in affix:
        return affix
    text = affix.replace("¤", symbol)
    edge, touches = (symbol[-1], affix.endswith("¤")) if before else (symbol[0],
                                                                      affix.startswith("¤"))
    if not touches or unicodedata.category(edge)[0] in "SZ":
        return text
    return text + "\u00a0" if before else "\u00a0" + text
