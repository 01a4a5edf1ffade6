"""Labels of the API's enumerations that several areas show, written once: payment state and
payment method of incomes and expenses."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

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
