"""Labels of the API's enumerations that several areas show, written once: payment state and
payment method of incomes and expenses, where a record came from (its source) and a VAT
category with its percent; and the labelled section a record's detail page shows its fields
in."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from app.numbers import format_number, format_percent

PAID_STATUS = {1: _l("Unpaid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
PAYMENT_METHODS = {"transfer": _l("Bank transfer"), "cash": _l("Cash"), "card": _l("Card"),
                   "cod": _l("Cash on delivery"), "cancel": _l("Cancellation")}

# Sources the upstream is known to write, as their owners spell them; an unknown integration
# is named as one, never shown as a bare code.
SOURCES = {"manual": _l("Entered by hand"), "api": _l("Through the API"), "nav": "NAV",
           "szamlazz.hu": "Számlázz.hu", "billingo": "Billingo", "kulcs-ber": "Kulcs-Bér",
           "nexon": "Nexon", "novitax": "Novitax"}


def source_label(source) -> str:
    """Where a record came from: by hand, the API, or the integration's own name."""
    if not source:
        return str(SOURCES["manual"])
    known = SOURCES.get(source) or SOURCES.get(str(source).lower())
    return str(known) if known else str(_l("Integration (%(code)s)", code=source))


def paid_label(status) -> str:
    """Unpaid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def paid_badge(status) -> str:
    """The badge colour of a payment state."""
    return PAID_BADGE.get(status, "muted")


def method_label(method) -> str:
    """A payment method as words."""
    return str(PAYMENT_METHODS.get(method, method or "—"))


def vat_text(value: Any) -> str:
    """A VAT object as its name with the percent (a float since spec 9.5)."""
    if not isinstance(value, dict):
        return "—" if value in (None, "") else f"#{value}"
    name, percent = value.get("name") or "", value.get("percent")
    if percent is None or format_number(percent) in name:
        return name or f"#{value.get('id')}"
    return f"{name} ({format_percent(percent)})".strip()


@dataclass
class Section:
    """A titled list of (label, text) pairs: one field group of a record's detail page."""

    title: Any
    rows: list[tuple[Any, str]] = field(default_factory=list)
