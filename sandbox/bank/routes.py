"""GET /1/accounts, /1/payments and /1/pulse: the bank as the live API shows it (read-only).

The records are shaped as the live API shapes them: amounts and rates as decimal strings.
"""
from __future__ import annotations

from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal

from flask import jsonify, request
from sqlalchemy import func, select

from sandbox.bank.model import BankAccount, BankPayment, BankTransaction
from sandbox.bank.rules import balance, last_updated
from sandbox.core import query
from sandbox.core.auth import current_company
from sandbox.core.db import db
from sandbox.core.model import money_str, rate_str
from sandbox.core.pagination import page_number_page


def list_accounts():
    """The company's bank accounts, page-numbered; `name` keeps those whose name contains it."""
    stmt = select(BankAccount).where(BankAccount.company_id == current_company().id)
    if name := request.args.get("name"):
        stmt = stmt.where(func.lower(BankAccount.name).contains(name.lower()))
    return jsonify(page_number_page(stmt.order_by(BankAccount.id),
                                    lambda rows: [account_json(a) for a in rows]))


def list_payments():
    """Payments per account and day, newest day first; `date`, `from_date`, `to_date` narrow."""
    stmt = select(BankPayment).join(BankAccount).where(
        BankAccount.company_id == current_company().id,
        BankPayment.transactions.any()).order_by(BankPayment.date.desc(), BankPayment.id)
    if (day := query.day("date")) is not None:
        stmt = stmt.where(BankPayment.date == day)
    if (start := query.day("from_date")) is not None:
        stmt = stmt.where(BankPayment.date >= start)
    if (end := query.day("to_date")) is not None:
        stmt = stmt.where(BankPayment.date <= end)
    return jsonify([payment_json(p) for p in db().scalars(stmt)])


def pulse():
    """Every account's current balance and their sum in the company's currency."""
    company = current_company()
    accounts = list(db().scalars(select(BankAccount).where(BankAccount.company_id == company.id)
                                 .order_by(BankAccount.id)))
    rows = [(a, balance(db(), a), last_updated(db(), a)) for a in accounts]
    return jsonify(pulse_json(rows))


def account_json(account: BankAccount) -> dict:
    """A /1/accounts record."""
    return {"id": account.id, "account_number": account.account_number, "name": account.name}


def payment_json(payment: BankPayment) -> dict:
    """A /1/payments record: one account's transactions of one day."""
    return {"id": payment.id, "date": payment.date.isoformat(),
            "transactions": [transaction_json(t) for t in payment.transactions],
            "account": payment.account_id}


def transaction_json(row: BankTransaction) -> dict:
    """One transaction, naming the expense it paid."""
    return {"id": row.id, "expense_id": row.expense_id, "amount": money_str(row.amount),
            "partner": row.partner, "currency": row.currency.code,
            "invoice_number": row.invoice_number, "exchange_rate": rate_str(row.exchange_rate)}


def pulse_json(rows: list[tuple[BankAccount, Decimal, datetime]]) -> dict:
    """Balances per account and `summary`: their sum at book rates, in whole units."""
    total = sum((value * account.book_rate for account, value, _ in rows), Decimal(0))
    return {"summary": int(total.quantize(Decimal(1), rounding=ROUND_HALF_UP)),
            "accounts": [_balance_json(*row) for row in rows]}


def _balance_json(account: BankAccount, value: Decimal, updated: datetime) -> dict:
    aware = updated if updated.tzinfo else updated.replace(tzinfo=UTC)
    return {"id": account.id, "name": account.name, "account_number": account.account_number,
            "currency": account.currency.code, "current_balance": money_str(value),
            "last_updated": aware.astimezone(UTC).isoformat()}
