"""GET /1/accounts, /1/payments and /1/pulse: the bank as the live API shows it (read-only)."""
from __future__ import annotations

from flask import jsonify, request
from sqlalchemy import func, select

from sandbox.bank.model import BankAccount, BankPayment
from sandbox.bank.rules import balance, last_updated
from sandbox.bank.serialize import account_json, payment_json, pulse_json
from sandbox.core import query
from sandbox.core.auth import current_company
from sandbox.core.db import db
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
