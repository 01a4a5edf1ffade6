"""The expense list's rows, formatted once in Python (app/cells says why)."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import lazy_gettext as _l

from app.expenses import labels
from app.expenses.present import totals
from app.templating import Amount, Days, Words, amount

FILE_ATTACHED = _l("File attached: %(kind)s")


@dataclass(slots=True)
class Row:
    """One expense as the list shows it."""

    id: int
    filing: str
    invoice_number: str
    partner: str
    file: tuple[str, str, str] | None
    dates: tuple[str, str]
    overdue: bool
    types: list[str]
    amounts: tuple[Amount, Amount, Amount]
    paid: tuple[str, str]
    status: tuple[str, str] | None
    excluded: bool
    tags: list[str] = field(default_factory=list)


def list_rows(items: list[dict], codes: dict, lookups: dict, today: str) -> list[Row]:
    """Rows for the expense table: every label and format worked out once per page."""
    words = Words(paid=labels.PAID_STATUS, status=labels.ACCOUNTING_STATUS, file=FILE_ATTACHED)
    names = {"types": lookups.get("expense_types", {}), "tags": lookups.get("tags", {})}
    days = Days()
    return [_row(expense, codes, names, today, words, days) for expense in items]


def _row(expense: dict, codes: dict, names: dict, today: str, words: Words, days: Days) -> Row:
    code = codes.get(expense.get("currency"))
    due, paid, status = expense.get("due_at"), expense.get("paid_status"), expense.get(
        "accounting_status")
    sums = totals(expense)
    return Row(
        id=expense["id"], filing=expense.get("filing_number") or f"#{expense['id']}",
        invoice_number=expense.get("invoice_number") or "—",
        partner=expense.get("partner_name") or "—", file=_file(expense, words),
        dates=(days[expense.get("issued_at")], days[due]),
        overdue=paid != 2 and bool(due) and due < today,
        types=_types(expense, names["types"]),
        amounts=(amount(sums["net_amount"], code, words.locale),
                 amount(sums["vat_amount"], code, words.locale),
                 amount(sums["gross_amount"], code, words.locale)),
        paid=(words["paid"].get(paid, str(paid or "")), labels.paid_badge(paid)),
        status=(words["status"].get(status, status), labels.status_badge(status))
        if status else None,
        excluded=bool(expense.get("excluded_from_accounting")),
        tags=[names["tags"].get(tag, f"#{tag}") for tag in expense.get("tags") or []])


def _file(expense: dict, words: Words) -> tuple[str, str, str] | None:
    """(icon style, kind shown, description) when the expense has a file."""
    if not expense.get("has_artifact"):
        return None
    extension = expense.get("artifact_extension") or ""
    kind = extension.upper()
    return (extension or "file", kind or "?", words["file"] % {"kind": kind})


def _types(expense: dict, type_names: dict) -> list[str]:
    """The names of the expense types its assignments use, each once, in order."""
    ids = dict.fromkeys(row.get("expense_type") for row in expense.get("assignments") or [])
    return [type_names.get(type_id, f"#{type_id}") for type_id in ids if type_id]
