"""What the partner card shows: open amounts per currency with their ageing, the rows of the
partner's documents, and the statement's columns (exported through app/exports.py).

An open document is one the API does not call fully paid (paid_status 1 or 3). The list gives
no remaining amount of a partly paid document, so its whole gross counts as open. A document is
past due from the day after its due date (company time zone); one without a due date is never
past due.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from flask_babel import lazy_gettext as _l

from app.exports import amount as amount_cell
from app.exports import day
from app.identifiers import show_bank_account, show_tax_number
from app.numbers import to_decimal
from app.templating import paid_label
from app.totals import expense_amounts

ZERO = Decimal(0)
# (key, label, last day past due it holds; None: no upper end)
BUCKETS = (("1-30", _l("0–30 days"), 30), ("31-60", _l("31–60 days"), 60),
           ("61-90", _l("61–90 days"), 90), ("90+", _l("Over 90 days"), None))
KIND_LABELS = {"income": _l("Income"), "expense": _l("Expense")}


@dataclass
class Ageing:
    """The open amount of one side (receivables or payables) in one currency."""

    code: str
    count: int = 0
    open: Decimal = ZERO
    not_due: Decimal = ZERO
    buckets: dict[str, Decimal] = field(default_factory=lambda: {k: ZERO for k, *_ in BUCKETS})

    @property
    def overdue(self) -> Decimal:
        """Everything past due, over all buckets."""
        return sum(self.buckets.values(), ZERO)


def gross(record: dict) -> Decimal:
    """A document's gross amount: an income's own, an expense's summed over its rows."""
    if record.get("kind") == "expense":
        return expense_amounts(record)["gross_amount"]
    return to_decimal(record.get("gross_amount")) or ZERO


def days_past_due(record: dict, today: date) -> int | None:
    """Days since the due date (0 or less: not yet past due); None without a due date."""
    due = day(record.get("due_at"))
    return None if due is None else (today - due).days


def bucket_of(days: int | None) -> str | None:
    """The ageing bucket of a number of days past due; None when not past due."""
    if days is None or days <= 0:
        return None
    return next(key for key, _label, last in BUCKETS if last is None or days <= last)


def ageing(records: list[dict], codes: dict, today: date) -> list[Ageing]:
    """Open amounts and their ageing per currency, the currencies in code order."""
    found: dict[str, Ageing] = {}
    for record in records:
        code = codes.get(record.get("currency")) or str(record.get("currency") or "")
        line = found.setdefault(code, Ageing(code))
        value, bucket = gross(record), bucket_of(days_past_due(record, today))
        line.count += 1
        line.open += value
        if bucket is None:
            line.not_due += value
        else:
            line.buckets[bucket] += value
    return [found[code] for code in sorted(found)]


def marked(records: list[dict], kind: str) -> list[dict]:
    """The records with their kind ("income" or "expense") written on them."""
    return [{**record, "kind": kind} for record in records]


def document_row(record: dict, codes: dict, today: date) -> dict:
    """One document of the card's lists: what it is, its dates, amount and payment state."""
    days = days_past_due(record, today)
    open_ = record.get("paid_status") != 2 and not record.get("is_cancelled")
    return {"id": record.get("id"), "kind": record.get("kind"),
            "number": record.get("invoice_number") or record.get("filing_number") or
            f"#{record.get('id')}",
            "issued_at": record.get("issued_at"), "due_at": record.get("due_at"),
            "code": codes.get(record.get("currency")), "gross": gross(record),
            "paid_status": record.get("paid_status"),
            "cancelled": bool(record.get("is_cancelled")),
            "days_overdue": days if open_ and days is not None and days > 0 else None}


def statement_header() -> list[str]:
    """The statement's column titles in the page's language."""
    return [str(text) for text in (
        _l("Document"), _l("Invoice number"), _l("Issue date"), _l("Due date"),
        _l("Currency"), _l("Gross"), _l("Paid status"), _l("Cancelled"), _l("Days overdue"))]


def statement_row(record: dict, lookups: dict) -> list:
    """One document of the statement as typed cells (amount a number, dates dates)."""
    row = document_row(record, lookups.get("codes", {}), lookups["today"])
    status = row["paid_status"]
    return [str(KIND_LABELS.get(row["kind"], "")), row["number"], day(row["issued_at"]),
            day(row["due_at"]), row["code"] or "", amount_cell(row["gross"]),
            str(paid_label(status)) if status else "", str(_l("Yes")) if row["cancelled"] else "",
            Decimal(row["days_overdue"]) if row["days_overdue"] else None]


def list_header() -> list[str]:
    """The partner list's column titles in the page's language."""
    return [str(text) for text in (
        _l("Name"), _l("Tax number"), _l("Customer"), _l("Vendor"), _l("Address"),
        _l("Default bank account"), _l("Created"))]


def list_row(partner: dict, _lookups: dict) -> list:
    """One partner of the list as cells (roles as yes/no, the created day a date)."""
    yes, no = str(_l("Yes")), str(_l("No"))
    address = " ".join(str(part) for part in (partner.get("zip_code"), partner.get("city"),
                                              partner.get("address")) if part)
    return [partner.get("name") or "", show_tax_number(partner.get("tax_number")),
            yes if partner.get("is_customer") else no, yes if partner.get("is_vendor") else no,
            address, show_bank_account(partner.get("default_account_number")),
            day(partner.get("created_at"))]
