"""The income list's rows, formatted once in Python.

A 100-row page is about 1,100 cells. A Jinja macro call, a lazy-string lookup and a Babel
formatter per cell cost more than the page's whole overhead budget, so the labels are translated
once per page, each distinct date is formatted once, and amounts use the precomputed currency
format (app/money).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from flask_babel import get_locale
from flask_babel import gettext as _

from app.i18n import date_filter, number
from app.incomes import labels
from app.money import currency_format


@dataclass
class Amount:
    """A formatted amount and whether it is negative (shown in red)."""

    text: str
    negative: bool = False


@dataclass
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
    cancelled: bool
    paid: tuple[str, str]
    review: tuple[str, str] | None
    storno_of: str | None = None
    tags: list[str] = field(default_factory=list)


def list_rows(items: list[dict], codes: dict, tag_names: dict, today: str) -> list[Row]:
    """Rows for the income table: every label and format worked out once per page."""
    words = _words()
    dates: dict = {}
    return [_row(income, codes, tag_names, today, words, dates) for income in items]


def _words() -> dict:
    return {"kinds": {k: str(v) for k, v in labels.TYPES.items()},
            "paid": {k: str(v) for k, v in labels.PAID_STATUS.items()},
            "cancelled": _("Cancelled"), "to_review": _("To review"),
            "reviewed": _("Reviewed"), "locale": str(get_locale())}


def _row(income: dict, codes: dict, tag_names: dict, today: str, words: dict,
         dates: dict) -> Row:
    code = codes.get(income.get("currency"))
    due = income.get("due_at")
    overdue = (income.get("paid_status") != 2 and not income.get("is_cancelled")
               and bool(due) and due < today)
    status = income.get("paid_status")
    return Row(
        id=income["id"], number=income.get("invoice_number") or f"#{income['id']}",
        kind=words["kinds"].get(income.get("type"), str(income.get("type") or "")),
        partner=income.get("partner_name") or "—", tax_number=income.get("partner_tax_number"),
        dates=tuple(_date(income.get(k), dates) for k in ("issued_at", "fulfilled_at", "due_at")),
        overdue=overdue,
        amounts=tuple(_amount(income.get(k), code, words["locale"])
                      for k in ("net_amount", "vat_amount", "gross_amount")),
        cancelled=bool(income.get("is_cancelled")),
        paid=(words["paid"].get(status, str(status or "")), labels.PAID_BADGE.get(status, "muted")),
        review=_review(income, words),
        storno_of=(income.get("referred_invoice_number") or "?")
        if labels.is_storno(income) else None,
        tags=[tag_names.get(tag, f"#{tag}") for tag in income.get("tags") or []])


def _date(value, seen: dict) -> str:
    if value not in seen:
        seen[value] = date_filter(value)
    return seen[value]


def _amount(value, code: str | None, locale: str) -> Amount:
    if value is None or value == "":
        return Amount("")
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return Amount("")
    text = currency_format(locale, code.upper()).apply(amount) if code else number(amount, 2)
    return Amount(text, amount < 0)


def _review(income: dict, words: dict) -> tuple[str, str] | None:
    state = labels.review_state(income)
    if state is None:
        return None
    return (words[state], "attention" if state == "to_review" else "ok")
