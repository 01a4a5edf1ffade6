"""VAT periods (spec 4.2 update rule 6) and the income's payment state (spec 3)."""
from __future__ import annotations

import calendar
from datetime import date
from decimal import Decimal

from sandbox.incomes.model import Income, IncomePayment

VAT_PERIOD_TYPES = ("monthly", "quarterly", "yearly")
NOT_PAID, PAID, PARTIALLY_PAID = 1, 2, 3


def vat_period_start(kind: str, day: date) -> date:
    """Round a date down to the first day of its month, quarter or year."""
    if kind == "monthly":
        return day.replace(day=1)
    if kind == "quarterly":
        return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    return date(day.year, 1, 1)


def vat_period_end(kind: str | None, start: date | None) -> date | None:
    """The last day of the period that starts at start."""
    if kind is None or start is None:
        return None
    months = {"monthly": 1, "quarterly": 3, "yearly": 12}[kind]
    last_month = start.month + months - 1
    year, month = start.year + (last_month - 1) // 12, (last_month - 1) % 12 + 1
    return date(year, month, calendar.monthrange(year, month)[1])


def paid_status_for(income: Income) -> int:
    """1 not paid, 2 paid, 3 partially paid; a cancelled income counts as settled."""
    if income.is_cancelled:
        return PAID
    paid, gross = abs(income.paid_amount), abs(income.gross_amount)
    if paid >= gross:
        return PAID
    return PARTIALLY_PAID if paid else NOT_PAID


def recalc_payments(income: Income) -> None:
    """Refresh the denormalised paid_amount and paid_status from the payments."""
    income.paid_amount = sum((p.amount for p in income.payments), Decimal(0))
    income.paid_status = paid_status_for(income)


def replace_with_zero_payment(income: Income, day: date) -> None:
    """Cancellation: every payment is replaced by one zero-amount payment."""
    income.payments.clear()
    income.payments.append(IncomePayment(paid_at=day, amount=Decimal(0), method="cancel"))
    recalc_payments(income)


def apply_cancellation(income: Income, cancelled: bool, day: date) -> None:
    """Set is_cancelled and recalculate payments (spec 3, update rule 4)."""
    income.is_cancelled = cancelled
    if cancelled:
        replace_with_zero_payment(income, day)
    else:
        income.payments[:] = [p for p in income.payments if p.method != "cancel"]
        recalc_payments(income)


def touch(income: Income) -> None:
    """Every change bumps version and updated_at (clients compare them)."""
    from sandbox.core.model import utcnow

    income.version = (income.version or 0) + 1
    income.updated_at = utcnow()
