"""CSV export of the filtered expense list: UTF-8 with BOM, `;` and decimal comma in Hungarian."""
from __future__ import annotations

import csv
import io
from decimal import Decimal

from flask_babel import get_locale
from flask_babel import gettext as _

from app.expenses.labels import method_label, paid_label, status_label
from app.expenses.present import totals

EXPORT_PAGE_SIZE = 200
BOM = "\ufeff"


def dialect() -> tuple[str, str]:
    """(separator, decimal mark) for the current locale: Excel opens either without asking."""
    return (";", ",") if str(get_locale() or "hu").startswith("hu") else (",", ".")


def header() -> list[str]:
    """Column titles."""
    return [_("Filing number"), _("Invoice number"), _("Partner"), _("Issue date"),
            _("Fulfilment date"), _("Due date"), _("Created"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"),
            _("Payment method"), _("Expense types"), _("Accounting status"), _("File"),
            _("Secondary ID"), _("Tags")]


def row(expense: dict, lookups: dict, decimal_mark: str) -> list[str]:
    """One expense as CSV cells (dates ISO, amounts from the assignments)."""
    sums = totals(expense)
    types = lookups.get("expense_types", {})
    kinds = dict.fromkeys(types.get(a.get("expense_type"), "") for a in
                          expense.get("assignments") or [])
    tags = lookups.get("tags", {})
    return [expense.get("filing_number") or "", expense.get("invoice_number") or "",
            expense.get("partner_name") or "", expense.get("issued_at") or "",
            expense.get("fulfilled_at") or "", expense.get("due_at") or "",
            (expense.get("created_at") or "")[:10],
            *(_amount(sums[key], decimal_mark) for key in ("net_amount", "vat_amount",
                                                           "gross_amount")),
            lookups.get("codes", {}).get(expense.get("currency"), ""),
            paid_label(expense.get("paid_status")), method_label(expense.get("payment_method")),
            ", ".join(k for k in kinds if k), status_label(expense.get("accounting_status")),
            _("Yes") if expense.get("has_artifact") else _("No"),
            expense.get("secondary_id") or "",
            ", ".join(tags.get(t, str(t)) for t in expense.get("tags") or [])]


def _amount(value: Decimal, decimal_mark: str) -> str:
    return str(value.quantize(Decimal("0.01"))).replace(".", decimal_mark)


def csv_text(pages: list, codes: dict) -> str:
    """The whole CSV, BOM first, one row per expense of every page."""
    separator, decimal_mark = dialect()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n")
    writer.writerow(header())
    for page in pages:
        lookups = {**page.lookups, "codes": codes}
        for expense in page.items:
            writer.writerow(row(expense, lookups, decimal_mark))
    return BOM + buffer.getvalue()
