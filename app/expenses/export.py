"""The expense list's export columns (app/exports.py writes the file)."""
from __future__ import annotations

from flask_babel import gettext as _

from app.expenses.labels import method_label, paid_label, status_label
from app.expenses.present import totals
from app.exports import amount, day


def header() -> list[str]:
    """Column titles."""
    return [_("Filing number"), _("Invoice number"), _("Partner"), _("Issue date"),
            _("Fulfilment date"), _("Due date"), _("Created"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"),
            _("Payment method"), _("Expense types"), _("Accounting status"), _("File"),
            _("Secondary ID"), _("Tags")]


def row(expense: dict, lookups: dict) -> list:
    """One expense as export cells (dates as dates, amounts as numbers from the assignments)."""
    sums = totals(expense)
    types = lookups.get("expense_types", {})
    kinds = dict.fromkeys(types.get(a.get("expense_type"), "") for a in
                          expense.get("assignments") or [])
    tags = lookups.get("tags", {})
    return [expense.get("filing_number") or "", expense.get("invoice_number") or "",
            expense.get("partner_name") or "", day(expense.get("issued_at")),
            day(expense.get("fulfilled_at")), day(expense.get("due_at")),
            day(expense.get("created_at")),
            *(amount(sums[key]) for key in ("net_amount", "vat_amount", "gross_amount")),
            lookups.get("codes", {}).get(expense.get("currency"), ""),
            paid_label(expense.get("paid_status")), method_label(expense.get("payment_method")),
            ", ".join(k for k in kinds if k), status_label(expense.get("accounting_status")),
            _("Yes") if expense.get("has_artifact") else _("No"),
            expense.get("secondary_id") or "",
            ", ".join(tags.get(t, str(t)) for t in expense.get("tags") or [])]

