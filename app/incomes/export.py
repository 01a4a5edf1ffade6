"""The income list's export columns (app/exports.py writes the file)."""
from __future__ import annotations

from flask_babel import gettext as _

from app.exports import amount, day
from app.incomes.labels import paid_label, type_label


def header() -> list[str]:
    """Column titles."""
    return [_("Invoice number"), _("Kind"), _("Storno"), _("Partner"), _("Tax number"),
            _("Issue date"), _("Fulfilment date"), _("Due date"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"), _("Cancelled"),
            _("Needs review"), _("Tags")]


def row(income: dict, lookups: dict) -> list:
    """One income as export cells (dates as dates, amounts as numbers)."""
    tags = lookups.get("tags", {})
    yes, no = _("Yes"), _("No")
    return [income.get("invoice_number") or "", type_label(income.get("type")),
            yes if income.get("invoice_type") == 1 else no, income.get("partner_name") or "",
            income.get("partner_tax_number") or "", day(income.get("issued_at")),
            day(income.get("fulfilled_at")), day(income.get("due_at")),
            amount(income.get("net_amount")),
            amount(income.get("vat_amount")),
            amount(income.get("gross_amount")),
            lookups.get("codes", {}).get(income.get("currency"), ""),
            paid_label(income.get("paid_status")), yes if income.get("is_cancelled") else no,
            yes if income.get("needs_review") and not income.get("review_done") else no,
            ", ".join(tags.get(t, str(t)) for t in income.get("tags") or [])]

