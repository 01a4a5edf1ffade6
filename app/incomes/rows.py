"""The income list's rows, formatted once in Python (app/cells says why)."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _

from app.incomes import labels
from app.templating import Amount, Days, Words, amount


@dataclass(slots=True)
class Row:
    """One income as the list shows it."""

    id: int
    number: str
    kind: str
    partner: str
    tax_number: str | None
    dates: tuple[str, str, str]
    overdue: bool
    amounts: tuple[Amount, Amount, Amount]
    cancelled: str  # "" for a live document, else "Reversed" or "Cancelled"
    paid: tuple[str, str]
    review: tuple[str, str] | None
    storno_of: str | None = None
    tags: list[str] = field(default_factory=list)


def list_rows(items: list[dict], codes: dict, tag_names: dict, today: str,
              reversed_numbers: frozenset[str] = frozenset()) -> list[Row]:
    """Rows for the income table: every label and format worked out once per page.

    reversed_numbers: the numbers a storno names (app.incomes.upstream.reversed_numbers).
    """
    words = Words(kinds=labels.TYPES, paid=labels.PAID_STATUS, to_review=_("To review"),
                  reviewed=_("Reviewed"))
    days = Days()
    return [_row(income, codes, tag_names, today, words, days, reversed_numbers)
            for income in items]


def _row(income: dict, codes: dict, tag_names: dict, today: str, words: Words,
         days: Days, reversed_numbers: frozenset[str]) -> Row:
    code = codes.get(income.get("currency"))
    due = income.get("due_at")
    status = income.get("paid_status")
    overdue = status != 2 and not income.get("is_cancelled") and bool(due) and due < today
    return Row(
        id=income["id"], number=income.get("invoice_number") or f"#{income['id']}",
        kind=words["kinds"].get(income.get("type"), str(income.get("type") or "")),
        partner=income.get("partner_name") or "—", tax_number=income.get("partner_tax_number"),
        dates=(days[income.get("issued_at")], days[income.get("fulfilled_at")], days[due]),
        overdue=overdue,
        amounts=(amount(income.get("net_amount"), code, words.locale),
                 amount(income.get("vat_amount"), code, words.locale),
                 amount(income.get("gross_amount"), code, words.locale)),
        cancelled=labels.cancel_label(labels.cancel_state(income, reversed_numbers)),
        paid=(words["paid"].get(status, str(status or "")), labels.PAID_BADGE.get(status, "muted")),
        review=_review(income, words),
        storno_of=(income.get("referred_invoice_number") or "?")
        if labels.is_storno(income) else None,
        tags=[tag_names.get(tag, f"#{tag}") for tag in income.get("tags") or []])


def _review(income: dict, words: Words) -> tuple[str, str] | None:
    state = labels.review_state(income)
    if state is None:
        return None
    return (words[state], "attention" if state == "to_review" else "ok")
