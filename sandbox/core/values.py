"""Parsing of request values with DRF's messages: dates, amounts, booleans, ids, text. Every
resource's serializer (incomes, expenses, taxes, partners, policies) reads its values here."""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

DATE_MSG = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
DATETIME_MSG = ("Datetime has wrong format. Use one of these formats instead: "
                "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].")
BOOL_MSG = "Must be a valid boolean."
NUMBER_MSG = "A valid number is required."
INT_MSG = "A valid integer is required."
BLANK_MSG = "This field may not be blank."
NULL_MSG = "This field may not be null."
REQUIRED_MSG = "This field is required."
STRING_MSG = "Not a valid string."
POSITIVE_MSG = "Ensure this value is greater than 0."
PERCENT_MSG = "Ensure this value is between 0 and 100."
TOO_LARGE_MSG = "Ensure that there are no more than {} digits before the decimal point."
MAX_DIGITS = 14  # Numeric(14, 2) amounts, (14, 4) quantities, (14, 6) exchange rates
TOTAL_DIGITS_MSG = f"Ensure that there are no more than {MAX_DIGITS} digits in total."
TRUE_WORDS, FALSE_WORDS = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class FieldError(ValueError):
    """One field's validation message."""


def parse_date(value: Any, nullable: bool = True) -> date | None:
    """YYYY-MM-DD (an ISO datetime is accepted and cut to its date)."""
    if value is None:
        if nullable:
            return None
        raise FieldError(NULL_MSG)
    if isinstance(value, str):
        text = value.strip()
        try:
            return date.fromisoformat(text) if len(text) == 10 else _datetime(text).date()
        except ValueError:
            pass
    raise FieldError(DATE_MSG)


def parse_iso_date(value: Any) -> date | None:
    """Exactly YYYY-MM-DD, or None: the expense and tax serializers take no other form."""
    if value is None:
        return None
    if not isinstance(value, str) or not ISO_DAY.fullmatch(value):
        raise FieldError(DATE_MSG)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise FieldError(DATE_MSG) from None


def too_long_msg(max_length: int) -> str:
    """DRF's message for text over max_length."""
    return f"Ensure this field has no more than {max_length} characters."


def places_msg(places: int) -> str:
    """DRF's message for a decimal with more than `places` decimals."""
    return f"Ensure that there are no more than {places} decimal places."


def choice_msg(value: Any) -> str:
    """DRF's message for a value outside a field's choices."""
    return f'"{value}" is not a valid choice.'


def parse_timestamp(value: Any) -> datetime | None:
    """An ISO 8601 timestamp with a zone (Z or an offset), or None."""
    if value is None:
        return None
    try:
        stamp = _datetime(value.strip()) if isinstance(value, str) else None
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        raise FieldError(DATETIME_MSG)
    return stamp


def _datetime(text: str) -> datetime:
    if "T" not in text and " " not in text:
        raise ValueError(text)
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def parse_money(value: Any, nullable: bool = False, places: int = 2) -> Decimal | None:
    """A decimal from a string or number as DRF DecimalField(14, places) reads it: at most
    14 digits, 14 - places before the point and `places` after it; refused, never rounded."""
    if value is None:
        if nullable:
            return None
        raise FieldError(NULL_MSG)
    amount = parse_number(value)
    _check_precision(amount, places)
    return amount.quantize(Decimal(1).scaleb(-places))


def _check_precision(amount: Decimal, places: int) -> None:
    # DRF counts the digits as written: "5000.000" has three decimal places, "1E+13" 14 digits.
    _sign, digits, exponent = amount.as_tuple()
    decimals = max(0, -exponent)
    total = len(digits) + exponent if exponent >= 0 else max(len(digits), decimals)
    if total > MAX_DIGITS:
        raise FieldError(TOTAL_DIGITS_MSG)
    if decimals > places:
        raise FieldError(places_msg(places))
    if total - decimals > MAX_DIGITS - places:
        raise FieldError(TOO_LARGE_MSG.format(MAX_DIGITS - places))


def parse_rate(value: Any) -> Decimal:
    """A positive exchange rate as DRF DecimalField(14, 6) reads it: refused, never rounded."""
    rate = parse_money(value, places=6)
    if rate <= 0:
        raise FieldError(POSITIVE_MSG)
    return rate


def parse_float(value: Any) -> float:
    """A finite float from a string or number, as DRF FloatField reads it."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise FieldError(NUMBER_MSG)
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise FieldError(NUMBER_MSG) from None
    if not math.isfinite(number):
        raise FieldError(NUMBER_MSG)
    return number


def parse_percent(value: Any) -> float:
    """A percentage from 0 to 100 (a VAT rate), read as a float."""
    number = parse_float(value)
    if not 0 <= number <= 100:
        raise FieldError(PERCENT_MSG)
    return number


def parse_number(value: Any) -> Decimal:
    """A finite decimal from a string or number; booleans, junk, NaN and infinities refused."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise FieldError(NUMBER_MSG)
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise FieldError(NUMBER_MSG) from None
    if not amount.is_finite():
        raise FieldError(NUMBER_MSG)
    return amount


def parse_bool(value: Any) -> bool:
    """A JSON boolean (DRF also takes the usual words)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in TRUE_WORDS + FALSE_WORDS:
        return value.lower() in TRUE_WORDS
    raise FieldError(BOOL_MSG)


def parse_int(value: Any, nullable: bool = True) -> int | None:
    """An integer id; {"id": n} objects from detail responses are taken too."""
    if isinstance(value, dict) and "id" in value:
        value = value["id"]
    if value is None:
        if nullable:
            return None
        raise FieldError(NULL_MSG)
    if isinstance(value, bool):
        raise FieldError(INT_MSG)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value)
    raise FieldError(INT_MSG)


def int_or_none(value: Any) -> int | None:
    """parse_int's integer, or None where it would refuse the value."""
    try:
        return parse_int(value)
    except FieldError:
        return None


def parse_text(value: Any, max_length: int, nullable: bool = True) -> str | None:
    """A non-blank string up to max_length; null clears when nullable."""
    if value is None:
        if nullable:
            return None
        raise FieldError(NULL_MSG)
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise FieldError(STRING_MSG)
    text = str(value).strip()
    if not text:
        raise FieldError(BLANK_MSG)
    if len(text) > max_length:
        raise FieldError(too_long_msg(max_length))
    return text


def parse_choice(value: Any, choices: tuple, nullable: bool = True):
    """One of choices."""
    if value is None and nullable:
        return None
    if value not in choices:
        raise FieldError(choice_msg(value))
    return value


def checked(parse: Callable[[Any], Any], raw: Any) -> tuple[Any, list[str]]:
    """A raising parser's answer as (value, problems), for readers that return both."""
    try:
        return parse(raw), []
    except FieldError as exc:
        return None, [str(exc)]


def collect(data: dict, parsers: dict, errors: dict) -> dict:
    """Parse each present key of data with its parser; messages go into errors."""
    out = {}
    for key, parser in parsers.items():
        if key in data:
            try:
                out[key] = parser(data[key])
            except FieldError as exc:
                errors[key] = [str(exc)]
    return out
