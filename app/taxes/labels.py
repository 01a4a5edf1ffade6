"""Words of the taxes and salaries pages: columns, payment states, sources, months."""
from __future__ import annotations

from datetime import date

from babel.dates import format_skeleton
from flask_babel import get_locale, ngettext
from flask_babel import lazy_gettext as _l

MANUAL = "manual"
# Integration labels the upstream is known to put in `source`; the filter offers only these.
INTEGRATIONS = {"nav": "NAV", "kulcs-ber": "Kulcs-Bér", "nexon": "Nexon", "novitax": "Novitax"}
SOURCES = (MANUAL, *INTEGRATIONS)
PAID_STATUS = {1: _l("Not paid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
COLUMNS = {
    "month": _l("Payment month"), "amount": _l("Amount"), "paid_status": _l("Payment"),
    "code": _l("Tax code"), "account_number": _l("Bank account number"),
    "tax_number": _l("Tax identification number"), "due_at": _l("Due date"),
    "description": _l("Description"), "tags": _l("Tags"), "simple_tags": _l("Simple tags"),
    "source": _l("Source"),
}
NAMES = {"taxes": _l("Tax name"), "salaries": _l("Employee")}


def column(field: str, kind_name: str = "taxes") -> str:
    """The column heading of a field (the name column depends on the kind)."""
    if field == "name":
        return str(NAMES[kind_name])
    return str(COLUMNS.get(field, field))


def source_label(source: str | None) -> str:
    """Manual, or the integration's name (unknown labels shown as they come)."""
    if not source or source == MANUAL:
        return str(_l("Manual"))
    return INTEGRATIONS.get(source, source)


def paid_label(status) -> str:
    """Not paid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def month_label(value) -> str:
    """A payment month as words: "2024. március" / "March 2024"."""
    try:
        day = date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value or "")
    return format_skeleton("yMMMM", day, locale=get_locale())


def count_label(kind_name: str, count: int) -> str:
    """"3 taxes" / "1 salary"."""
    if kind_name == "salaries":
        return ngettext("%(num)d salary", "%(num)d salaries", count)
    return ngettext("%(num)d tax", "%(num)d taxes", count)
