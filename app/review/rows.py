"""The review queue's rows, formatted once in Python (app/cells says why)."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import lazy_gettext as _l

from app.cells import Amount, Days, Words, amount
from app.incomes import present
from app.review import compare
from app.review.reasons import LABELS, Context, reasons

SELECT = _l("Select %(number)s")


@dataclass(slots=True)
class Row:
    """One queue income as the table shows it."""

    id: int
    fingerprint: str
    number: str
    select_label: str
    kind: str
    partner: str
    tax_number: str | None
    issued: str
    gross: Amount
    reasons: list[tuple[str, str, str | None]]
    tags: list[str] = field(default_factory=list)


def queue_rows(items: list[dict], context: Context, codes: dict, tag_names: dict) -> list[Row]:
    """Rows for the queue table, with why each income waits and its fingerprint for bulk."""
    words = Words(kinds=present.TYPES, reasons=LABELS, select=SELECT)
    days = Days()
    return [_row(income, context, codes, tag_names, words, days) for income in items]


def _row(income: dict, context: Context, codes: dict, tag_names: dict, words: Words,
         days: Days) -> Row:
    number = income.get("invoice_number") or f"#{income['id']}"
    return Row(
        id=income["id"], fingerprint=compare.fingerprint(income), number=number,
        select_label=words["select"] % {"number": number},
        kind=words["kinds"].get(income.get("type"), str(income.get("type") or "")),
        partner=income.get("partner_name") or "—", tax_number=income.get("partner_tax_number"),
        issued=days[income.get("issued_at")],
        gross=amount(income.get("gross_amount"), codes.get(income.get("currency")), words.locale),
        reasons=[(reason.tone, words["reasons"][reason.code], reason.detail)
                 for reason in reasons(income, context)],
        tags=[tag_names.get(tag, f"#{tag}") for tag in income.get("tags") or []])
