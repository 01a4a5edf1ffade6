"""Value kinds: how one kind of upstream value is read, parsed from a form, sent and shown.

Every kind works on one Python value type (str, date, Decimal, bool, int, list[int]); None
means empty. `load` reads a record value (ids or {id, name} objects alike), `parse` reads form
data (raising ValueError with a user message; numbers and dates by app/numbers.py), `dump`
gives the JSON payload value and `to_form` the WTForms data.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l

from app import identifiers
from app.numbers import format_number, parse_amount, parse_date, parse_number, to_decimal

# The API's Numeric(16, 6) rates and Numeric(14, 4) quantities and percents: ten digits before
# the point.
SMALL_MAX = Decimal("9999999999.9999")
# Four places for rates too: the expense API keeps four (and rounds more away without a word).
RATE_PLACES, SMALL_PLACES = 4, 4
CHOICE_MSG = _l("Choose one of the options.")


def ref_id(value: Any) -> int | None:
    """An id from an integer, a digit string or an {id, ...} object; None when empty."""
    if isinstance(value, dict):
        value = value.get("id")
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise ValueError(CHOICE_MSG)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(CHOICE_MSG) from None


def _text(value: Any) -> str | None:
    # Browsers send textarea line breaks as CRLF; the API keeps LF.
    text = "" if value is None else str(value).replace("\r\n", "\n").strip()
    return text or None


def _date(value: Any) -> date | None:
    if isinstance(value, date) or value in (None, ""):
        return value or None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _parse_date(value: Any) -> date | None:
    return value if isinstance(value, date) else parse_date(value)


def _number_parser(places: int) -> Callable[[Any], Decimal | None]:
    def parse(value: Any) -> Decimal | None:
        if isinstance(value, Decimal):
            return value
        return parse_number(value, places=places, minimum=-SMALL_MAX, maximum=SMALL_MAX)
    return parse


def _parse_amount(value: Any) -> Decimal | None:
    return value if isinstance(value, Decimal) else parse_amount(value)


def _form_number(places: int | None = None) -> Callable[[Any], str]:
    """The input's text: ungrouped, two decimals for amounts, significant decimals otherwise."""
    def to_form(value: Any) -> str:
        return format_number(value, places=places, grouping=False)
    return to_form


def _identifier(check: Callable[[str], str]) -> Callable[[Any], str | None]:
    def parse(value: Any) -> str | None:
        text = _text(value)
        return None if text is None else check(text)
    return parse


def _same_compact(a: Any, b: Any) -> bool:
    return identifiers.compact(a) == identifiers.compact(b)


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("y", "yes", "on", "true", "1")
    return bool(value)


def _refs(value: Any) -> list[int]:
    if value in (None, ""):
        return []
    values = value if isinstance(value, list | tuple) else [value]
    return [i for i in (ref_id(v) for v in values) if i is not None]


def _amount_out(value: Decimal | None) -> str | None:
    return None if value is None else str(value.quantize(Decimal("0.01")))


def _rate_out(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")


def _same(a: Any, b: Any) -> bool:
    return a == b


def _same_set(a: Any, b: Any) -> bool:
    return set(a or ()) == set(b or ())


@dataclass(frozen=True)
class Kind:
    """How one kind of value moves between record, form and payload."""

    name: str
    load: Callable[[Any], Any]
    parse: Callable[[Any], Any]
    dump: Callable[[Any], Any]
    to_form: Callable[[Any], Any]
    same: Callable[[Any, Any], bool] = _same
    # The record's value sent back unchanged is kept as it is, even one the check refuses now.
    keeps_unchanged: bool = False


def _identity(value: Any) -> Any:
    return value


def _or_blank(value: Any) -> Any:
    return "" if value is None else value


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _id_str(value: Any) -> str:
    return "" if value is None else str(value)


TEXT = Kind("text", _text, _text, _identity, _or_blank)
DATE = Kind("date", _date, _parse_date, _iso, lambda v: _iso(v) or "")
AMOUNT = Kind("amount", to_decimal, _parse_amount, _amount_out, _form_number(2))
RATE = Kind("rate", to_decimal, _number_parser(RATE_PLACES), _rate_out, _form_number())
PERCENT = Kind("percent", to_decimal, _number_parser(SMALL_PLACES),
               lambda v: None if v is None else float(v), _form_number())
BOOL = Kind("bool", _bool, _bool, bool, bool)
CHOICE = Kind("choice", _text, _text, _identity, _or_blank)
REF = Kind("ref", ref_id, ref_id, _identity, _id_str)
REFS = Kind("refs", _refs, _refs, list, lambda v: [str(i) for i in v or []], _same_set)
TAX_NUMBER = Kind("tax_number", _text, _identifier(identifiers.tax_number), _identity,
                  lambda v: identifiers.show_tax_number(v) if v else "", _same_compact, True)
BANK_ACCOUNT = Kind("bank_account", _text, _identifier(identifiers.bank_account), _identity,
                    lambda v: identifiers.show_bank_account(v) if v else "", _same_compact, True)

KINDS = {kind.name: kind for kind in (TEXT, DATE, AMOUNT, RATE, PERCENT, BOOL, CHOICE, REF, REFS,
                                      TAX_NUMBER, BANK_ACCOUNT)}
