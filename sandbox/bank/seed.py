"""Demo bank: a forint main account per company (company 1 also a euro one), paying every
demo expense that is paid or partially paid and not paid in cash, plus a few bank fees no
expense names (the unmatched transactions a bookkeeper still has to book)."""
from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.bank.model import BankAccount
from sandbox.bank.rules import (
    NOT_PAID,
    OFF_BANK_METHODS,
    balance,
    gross,
    main_account_number,
    open_account,
    record_unmatched,
    settle,
)
from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core.model import budapest_today
from sandbox.expenses.model import Expense

BANK_FEE_PARTNER = "OTP Bank Nyrt."
EURO_ACCOUNT = ("Deviza számla (EUR)", "11700024-20000001-00000000", Decimal("395.50"))


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Open the demo accounts, pay the paid expenses, then top up so balances stay positive."""
    euro = session.scalar(select(Currency).where(Currency.code == "EUR"))
    for number, company in companies.items():
        accounts = [open_account(session, company, "Főszámla", main_account_number(company.id))]
        if number == 1:
            name, account_number, rate = EURO_ACCOUNT
            accounts.append(open_account(session, company, name, account_number, euro,
                                         book_rate=rate))
        for expense in _paid_expenses(session, company):
            if gross(expense) > 0:
                settle(session, expense, expense.paid_status)
        _bank_fees(session, accounts[0], rng)
        for account in accounts:
            _top_up(session, account, rng)


def _bank_fees(session: Session, account: BankAccount, rng: random.Random) -> None:
    """The last three months' account fees: transactions no expense names."""
    for on in fee_days(budapest_today()):
        record_unmatched(session, account, on, Decimal(rng.randint(8, 30) * 100),
                         BANK_FEE_PARTNER, "")


def fee_days(today: date, months: int = 3) -> list[date]:
    """The first day of this month and of each month before it, `months` in all."""
    firsts = []
    for back in range(months):
        year, month = divmod(today.year * 12 + today.month - 1 - back, 12)
        firsts.append(date(year, month + 1, 1))
    return firsts


def _paid_expenses(session: Session, company: Company) -> list[Expense]:
    return list(session.scalars(select(Expense).where(
        Expense.company_id == company.id, Expense.paid_status != NOT_PAID,
        Expense.payment_method.not_in(OFF_BANK_METHODS)).order_by(Expense.id)))


def _top_up(session: Session, account: BankAccount, rng: random.Random) -> None:
    """An opening balance that covers the year's payments and leaves a plausible remainder."""
    spent = -balance(session, account)
    unit = Decimal(1_000_000) if account.currency.code == "HUF" else Decimal(2_500)
    account.opening_balance = spent + unit * rng.randint(2, 9)
    session.flush()
