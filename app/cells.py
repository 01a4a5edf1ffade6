"""Table cells formatted in Python, once per page, for the long lists (incomes, expenses).

A 100-row page is over a thousand cells. A Jinja macro, a lazy-string lookup and a Babel
formatter per cell cost more than the page's whole overhead budget, so the lists build their
rows here: labels translated once per page (`Words`), each distinct date formatted once per
page (`Days`), amounts with the precomputed currency format (app/numbers.py).

Also the labels every record list shares (payment state and method), written once here.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from app.numbers import currency_format, format_date, format_number, to_decimal

PAID_STATUS = {1: _l("Unpaid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
PAYMENT_METHODS = {"transfer": _l("Bank transfer"), "cash": _l("Cash"), "card": _l("Card"),
                   "cod": _l("Cash on delivery"), "cancel": _l("Cancellation")}


def paid_label(status) -> str:
    """Unpaid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def paid_badge(status) -> str:
    """The badge colour of a payment state."""
    return PAID_BADGE.get(status, "muted")


def method_label(method) -> str:
    """A payment method as words."""
    return str(PAYMENT_METHODS.get(method, method or "—"))


@dataclass(slots=True)
class Amount:
    """A formatted amount and whether it is negative (shown in red)."""

    text: str
    negative: bool = False


class Words:
    """The page's labels as plain strings, lazy ones translated once, not once per row; and
    its locale name (`locale`), for amount()."""

    def __init__(self, **labels) -> None:
        self.locale = str(get_locale())
        self._labels = {name: ({k: str(v) for k, v in value.items()}
                               if isinstance(value, dict) else str(value))
                        for name, value in labels.items()}

    def __getitem__(self, name: str):
        return self._labels[name]


def amount(value, code: str | None, locale: str) -> Amount:
    """An amount in a currency for a locale (code None: a plain number with two decimals)."""
    parsed = to_decimal(value)
    if parsed is None:
        return Amount("")
    text = (currency_format(locale, code.upper()).apply(parsed) if code
            else format_number(parsed, locale, places=2))
    return Amount(text, parsed < 0)


class Days(dict):
    """Dates formatted for the page's locale, each distinct one once."""

    def __missing__(self, value) -> str:
        text = self[value] = format_date(value)
        return text
