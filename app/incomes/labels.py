"""Names of income kinds and states, shared by the list, the detail and the CSV export."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

TYPES = {1: _l("Invoice"), 2: _l("Accounting document"), 6: _l("Cash receipt"),
         7: _l("Collective receipt")}
PAID_STATUS = {1: _l("Unpaid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
ACCOUNTING_STATUS = {"not_processed": _l("Not processed"), "processed": _l("Processed"),
                     "booked": _l("Booked")}
PAYMENT_METHODS = {"transfer": _l("Bank transfer"), "cash": _l("Cash"), "card": _l("Card"),
                   "cod": _l("Cash on delivery"), "cancel": _l("Cancellation")}
# A cancelled document says how it was cancelled: reversed by a storno document, or directly.
CANCEL_STATES = {"reversed": _l("Reversed"), "cancelled": _l("Cancelled")}
ACCOUNTING_DOCUMENT = 2
STORNO = 1


def type_label(kind) -> str:
    """The income kind's name (type 1, 2, 6, 7)."""
    return str(TYPES.get(kind, kind))


def paid_label(status) -> str:
    """Unpaid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def payment_method_label(method) -> str:
    """A payment's method as words."""
    return str(PAYMENT_METHODS.get(method, method or "—"))


def review_state(income: dict) -> str | None:
    """'to_review', 'reviewed' or None for an income that never needed review."""
    if income.get("review_done"):
        return "reviewed"
    return "to_review" if income.get("needs_review") else None


def is_storno(income: dict) -> bool:
    """True for a storno document (invoice_type 1)."""
    return income.get("invoice_type") == STORNO


def cancel_state(income: dict, reversed_numbers: set[str]) -> str | None:
    """'reversed' (a storno names it), 'cancelled' (cancelled directly) or None (neither)."""
    if not income.get("is_cancelled"):
        return None
    reversed_ = (income.get("type") == ACCOUNTING_DOCUMENT and not is_storno(income)
                 and income.get("invoice_number") in reversed_numbers)
    return "reversed" if reversed_ else "cancelled"


def cancel_label(state: str | None) -> str:
    """The words for a cancel state ('' for a live document)."""
    return str(CANCEL_STATES[state]) if state else ""


def can_storno(income: dict) -> bool:
    """A storno can be made of a live accounting document that is not itself a storno."""
    return (income.get("type") == ACCOUNTING_DOCUMENT and not is_storno(income)
            and not income.get("is_cancelled"))
