"""How the bank follows the expenses: a paid status is what the transactions add up to.

The live API can only read the bank, so the sandbox pays an expense when its paid status is set
(demo seed, /_sandbox/ controls): paid (2) means its transactions add up to its gross amount,
partially paid (3) to a part of it, not paid (1) to nothing. Cash is paid at the cash desk and
never reaches the bank. The account is the one in the expense's currency, else the company's
main account, converted at the expense's exchange rate. An expense without an amount yet
has no transactions whatever its status.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sandbox.bank.model import BankAccount, BankPayment, BankTransaction
from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core.errors import validation_error
from sandbox.core.model import budapest_today, money_str
from sandbox.expenses.model import Expense

NOT_PAID, PAID, PARTIAL = 1, 2, 3
OFF_BANK_METHODS = ("cash",)
MAIN_ACCOUNT_NAME = "Főszámla"
CENT = Decimal("0.01")


def gross(expense: Expense) -> Decimal:
    """What the expense costs in its currency (the assignments' total; live may send 0 on top)."""
    return expense.total_gross or expense.gross_amount or Decimal(0)


def paid_so_far(session: Session, expense: Expense) -> Decimal:
    """The sum of the expense's transactions."""
    total = session.scalar(select(func.sum(BankTransaction.amount))
                           .where(BankTransaction.expense_id == expense.id))
    return Decimal(total or 0)


def settle(session: Session, expense: Expense, paid_status: int, on: date | None = None) -> None:
    """Set the expense's paid status and make its bank transactions agree with it."""
    if paid_status not in (NOT_PAID, PAID, PARTIAL):
        raise validation_error({"paid_status": ["Must be 1, 2 or 3."]})
    total = gross(expense)
    expense.paid_status = paid_status
    session.flush()
    # An expense without an amount yet (an upload not processed) has nothing the bank could pay.
    if expense.payment_method in OFF_BANK_METHODS or paid_status == NOT_PAID or total <= CENT:
        _drop(session, expense)
        return
    paid = paid_so_far(session, expense)
    if paid_status == PARTIAL and not Decimal(0) < paid < total:
        _drop(session, expense)
        _pay(session, expense, _part(total), on)
    elif paid_status == PAID and paid != total:
        if paid > total:
            _drop(session, expense)
            paid = Decimal(0)
        _pay(session, expense, total - paid, on)


def _part(total: Decimal) -> Decimal:
    return (total / 2).quantize(CENT, rounding=ROUND_HALF_UP)


def _drop(session: Session, expense: Expense) -> None:
    rows = list(session.scalars(select(BankTransaction)
                                .where(BankTransaction.expense_id == expense.id)))
    days = {row.payment for row in rows}
    for row in rows:
        row.payment.transactions.remove(row)
    session.flush()
    for day in days:
        if not day.transactions:
            session.delete(day)
    session.flush()


def _pay(session: Session, expense: Expense, amount: Decimal, on: date | None) -> None:
    account = paying_account(session, expense)
    same = account.currency_id == expense.currency_id
    day = payment_day(session, account, on or payment_date(expense))
    day.transactions.append(BankTransaction(
        expense_id=expense.id, amount=amount, currency_id=expense.currency_id,
        exchange_rate=expense.exchange_rate or Decimal(1),
        account_amount=amount if same else (amount * expense.exchange_rate).quantize(CENT),
        partner=expense.partner.name if expense.partner else "",
        invoice_number=expense.invoice_number or ""))
    session.flush()


def record_unmatched(session: Session, account: BankAccount, on: date, amount: Decimal,
                     partner: str = "", invoice_number: str = "") -> BankTransaction:
    """A transaction no expense names (bank fee, a transfer not yet booked), in the account's
    currency: it lowers the balance like any other."""
    row = BankTransaction(expense_id=None, amount=amount, currency_id=account.currency_id,
                          exchange_rate=Decimal(1), account_amount=amount, partner=partner,
                          invoice_number=invoice_number)
    day = payment_day(session, account, on)
    day.transactions.append(row)
    session.flush()
    return row


def paying_accounts(session: Session, expense_ids: list[int]) -> dict[int, int]:
    """expense id -> the bank account that paid it last (the live `account`), one query."""
    rows = session.execute(select(BankTransaction.expense_id, BankPayment.account_id)
                           .join(BankPayment).where(BankTransaction.expense_id.in_(expense_ids))
                           .order_by(BankTransaction.id))
    return {expense_id: account_id for expense_id, account_id in rows}


def payment_history(session: Session, expense: Expense) -> list[dict]:
    """The expense's `fields=payment_history`: each bank transaction that paid it, oldest
    first, with its day, amount and currency, the paying account and the payment method."""
    rows = session.execute(select(BankTransaction, BankPayment).join(BankPayment)
                           .where(BankTransaction.expense_id == expense.id)
                           .order_by(BankPayment.date, BankTransaction.id))
    return [{"id": row.id, "date": day.date.isoformat(), "amount": money_str(row.amount),
             "currency": row.currency.code, "method": expense.payment_method,
             "account": day.account_id} for row, day in rows]


def payment_date(expense: Expense) -> date:
    """When the bank paid: the due date, never before issue and never in the future."""
    today = budapest_today()
    wanted = expense.due_at or expense.issued_at or expense.created_at.date()
    return min(max(wanted, expense.issued_at or wanted), today)


def paying_account(session: Session, expense: Expense) -> BankAccount:
    """The account in the expense's currency, else the main one (made when there is none)."""
    accounts = list(session.scalars(select(BankAccount).where(
        BankAccount.company_id == expense.company_id).order_by(BankAccount.id)))
    company = session.get(Company, expense.company_id)
    for account in accounts:
        if account.currency_id == expense.currency_id:
            return account
    for account in accounts:
        if account.currency_id == company.default_currency_id:
            return account
    return open_account(session, company, MAIN_ACCOUNT_NAME, main_account_number(company.id))


def open_account(session: Session, company: Company, name: str, number: str,
                 currency: Currency | None = None, opening: Decimal = Decimal(0),
                 book_rate: Decimal = Decimal(1)) -> BankAccount:
    """Add a bank account to the company."""
    account = BankAccount(company_id=company.id, name=name, account_number=number,
                          currency_id=(currency.id if currency else company.default_currency_id),
                          opening_balance=opening, book_rate=book_rate)
    session.add(account)
    session.flush()
    return account


def main_account_number(company_id: int) -> str:
    """A stable, well-formed Hungarian account number (three groups of eight digits)."""
    return f"11700024-{company_id:08d}-00000000"


def payment_day(session: Session, account: BankAccount, on: date) -> BankPayment:
    """The account's payment record for the day, made on first use."""
    day = session.scalar(select(BankPayment).where(BankPayment.account_id == account.id,
                                                   BankPayment.date == on))
    if day is None:
        day = BankPayment(account_id=account.id, date=on)
        session.add(day)
        session.flush()
    return day


def balance(session: Session, account: BankAccount) -> Decimal:
    """Opening balance less every transaction, in the account's currency."""
    spent = session.scalar(select(func.sum(BankTransaction.account_amount))
                           .join(BankPayment).where(BankPayment.account_id == account.id))
    return account.opening_balance - Decimal(spent or 0)


def last_updated(session: Session, account: BankAccount) -> datetime:
    """The newest transaction's time, or the account's opening."""
    newest = session.scalar(select(func.max(BankTransaction.created_at))
                            .join(BankPayment).where(BankPayment.account_id == account.id))
    return newest or account.created_at
