"""CSV export of the filtered income list: UTF-8 with BOM, `;` and decimal comma in Hungarian."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from flask_babel import get_locale
from flask_babel import gettext as _

from app.incomes.labels import paid_label, type_label

EXPORT_PAGE_SIZE = 200
BOM = "\ufeff"


def dialect() -> tuple[str, str]:
    """(separator, decimal mark) for the current locale: Excel opens either without asking."""
    return (";", ",") if str(get_locale() or "hu").startswith("hu") else (",", ".")


def header() -> list[str]:
    """Column titles."""
    return [_("Invoice number"), _("Kind"), _("Storno"), _("Partner"), _("Tax number"),
            _("Issue date"), _("Fulfilment date"), _("Due date"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"), _("Cancelled"),
            _("Needs review"), _("Tags")]


def row(income: dict, lookups: dict, decimal_mark: str) -> list[str]:
    """One income as CSV cells (dates ISO, amounts with the locale's decimal mark)."""
    tags = lookups.get("tags", {})
    yes, no = _("Yes"), _("No")
    return [income.get("invoice_number") or "", type_label(income.get("type")),
            yes if income.get("invoice_type") == 1 else no, income.get("partner_name") or "",
            income.get("partner_tax_number") or "", income.get("issued_at") or "",
            income.get("fulfilled_at") or "", income.get("due_at") or "",
            _amount(income.get("net_amount"), decimal_mark),
            _amount(income.get("vat_amount"), decimal_mark),
            _amount(income.get("gross_amount"), decimal_mark),
            lookups.get("codes", {}).get(income.get("currency"), ""),
            paid_label(income.get("paid_status")), yes if income.get("is_cancelled") else no,
            yes if income.get("needs_review") and not income.get("review_done") else no,
            ", ".join(tags.get(t, str(t)) for t in income.get("tags") or [])]


def _amount(value, decimal_mark: str) -> str:
    try:
        text = str(Decimal(str(value)).quantize(Decimal("0.01")))
    except (InvalidOperation, ValueError):
        return ""
    return text.replace(".", decimal_mark)


def lines(pages: Iterator, codes: dict) -> Iterator[str]:
    """The CSV text, one chunk per line, BOM first (streamed page by page)."""
    separator, decimal_mark = dialect()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n")

    def flush() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(header())
    yield BOM + flush()
    for page in pages:
        lookups = {"tags": page.lookups.get("tags", {}), "codes": codes}
        for income in page.items:
            writer.writerow(row(income, lookups, decimal_mark))
        yield flush()
