"""Labels of the API's enumerations that several areas show, written once: payment state and
payment method of incomes and expenses, and where a record came from (its source); and the
labelled section a record's detail page shows its fields in."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

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


@dataclass
class Section:
    """A titled list of (label, text) pairs: one field group of a record's detail page."""

    title: Any
    rows: list[tuple[Any, str]] = field(default_factory=list)
