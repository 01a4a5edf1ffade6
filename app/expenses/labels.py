"""Names of expense states, shared by the list, the detail and the CSV export."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

PAID_STATUS = {1: _l("Unpaid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
ACCOUNTING_STATUS = {"unprocessed": _l("Not processed"), "processed": _l("Processed"),
                     "checked": _l("Checked"), "booked": _l("Booked"),
                     "excluded": _l("Excluded from accounting")}
STATUS_BADGE = {"processed": "attention", "checked": "ok", "booked": "ok", "excluded": "muted"}
PAYMENT_METHODS = {"transfer": _l("Bank transfer"), "cash": _l("Cash"), "card": _l("Card"),
                   "cod": _l("Cash on delivery")}
SOURCES = {"manual": _l("Entered by hand"), "api": _l("Through the API")}
ACTIONS = {"exclude_from_accounting": _l("Excluded from accounting"),
           "include_in_accounting": _l("Included in accounting again")}


def paid_label(status) -> str:
    """Unpaid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def paid_badge(status) -> str:
    """The badge colour of a payment state."""
    return PAID_BADGE.get(status, "muted")


def status_label(status) -> str:
    """The accounting state as words (not processed, processed, checked, booked, excluded)."""
    return str(ACCOUNTING_STATUS.get(status, status or ""))


def status_badge(status) -> str:
    """The badge colour of an accounting state."""
    return STATUS_BADGE.get(status, "muted")


def method_label(method) -> str:
    """A payment method as words."""
    return str(PAYMENT_METHODS.get(method, method or "—"))


def source_label(source) -> str:
    """Where an expense came from: by hand, the API, or the integration's own name."""
    return str(SOURCES.get(source, source or ""))


def action_label(kind) -> str:
    """An expense action (the exclusion history) as words."""
    return str(ACTIONS.get(kind, kind or ""))

# Refusals the API words the same way every time: Bookdesk carries their translations.
KNOWN_REFUSALS = (_l("This expense is already excluded from accounting."),
                  _l("This list may not be empty."),
                  _l("Upload a valid PDF, JPEG, PNG or XML file. The content of the uploaded file "
                     "is none of these, whatever its name says."))
