"""Sandbox-only bank controls: the live API cannot write to the bank, tests and demos can.

POST /_sandbox/bank/accounts/  {"company_id", "name", "account_number", "currency": "EUR",
                                "opening_balance": "100000.00", "book_rate": "395.5"}
                               -> 201 {"id", "account_number", "name"}
POST /_sandbox/bank/settle/    {"expense_id", "paid_status": 1|2|3, "date": "YYYY-MM-DD"}
                               -> 200 {"expense_id", "paid_status", "paid_amount",
                               "transactions": [...]}: the expense is paid (or unpaid) through
                               the bank, so its transactions agree with its paid status
POST /_sandbox/bank/transactions/ {"account_id", "date", "amount", "partner", "invoice_number"}
                               -> 201 the transaction as /1/payments shows it, naming no
                               expense (an unmatched one: a fee, a transfer not yet booked)
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from flask import jsonify
from sqlalchemy import select

from sandbox.bank.model import BankAccount, BankTransaction
from sandbox.bank.routes import account_json, transaction_json
from sandbox.bank.rules import gross, open_account, paid_so_far, record_unmatched, settle
from sandbox.catalog.model import Currency
from sandbox.catalog.rules import NOT_JSON_OBJECT, json_object
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.model import money_str
from sandbox.core.values import FieldError, parse_number
from sandbox.expenses.fields import MAX_ID
from sandbox.expenses.model import Expense


def create_bank_account():
    """Open a bank account for a company."""
    spec = json_object(NOT_JSON_OBJECT)
    company = _row(Company, spec, "company_id")
    currency = db().scalar(select(Currency).where(Currency.code == spec.get("currency", "HUF")))
    if currency is None:
        raise validation_error({"currency": ["Unknown currency code."]})
    name, number = spec.get("name"), spec.get("account_number")
    if not isinstance(name, str) or not name or not isinstance(number, str) or not number:
        raise validation_error(non_field=["name and account_number are required."])
    account = open_account(db(), company, name, number, currency,
                           _decimal(spec, "opening_balance", "0"), _decimal(spec, "book_rate", "1"))
    return jsonify(account_json(account)), 201


def settle_expense():
    """Set an expense's paid status; the bank gains or loses the transactions that match it."""
    spec = json_object(NOT_JSON_OBJECT)
    expense = _row(Expense, spec, "expense_id")
    settle(db(), expense, spec.get("paid_status"), _day(spec.get("date")))
    rows = db().scalars(select(BankTransaction).where(BankTransaction.expense_id == expense.id)
                        .order_by(BankTransaction.id))
    return jsonify({"expense_id": expense.id, "paid_status": expense.paid_status,
                    "gross": money_str(gross(expense)),
                    "paid_amount": money_str(paid_so_far(db(), expense)),
                    "transactions": [transaction_json(t) for t in rows]})


def record_transaction():
    """Record a transaction on an account that names no expense."""
    spec = json_object(NOT_JSON_OBJECT)
    account = _row(BankAccount, spec, "account_id")
    day = _day(spec.get("date"))
    partner, number = spec.get("partner", ""), spec.get("invoice_number", "")
    if not isinstance(partner, str) or not isinstance(number, str) or day is None:
        raise validation_error(non_field=["date, partner and invoice_number must be given."])
    row = record_unmatched(db(), account, day, _decimal(spec, "amount", "0"), partner, number)
    return jsonify(transaction_json(row)), 201


def _day(on) -> date | None:
    try:
        return date.fromisoformat(on) if on is not None else None
    except (TypeError, ValueError):
        raise validation_error({"date": ["Expected YYYY-MM-DD."]}) from None


def _row(model, spec: dict, key: str):
    value = spec.get(key)
    row = db().get(model, value) if isinstance(value, int) and 0 < value <= MAX_ID else None
    if row is None:
        raise validation_error({key: ["Unknown id."]})
    return row


def _decimal(spec: dict, key: str, default: str) -> Decimal:
    try:
        return parse_number(spec.get(key, default))
    except FieldError:
        raise validation_error({key: ["A decimal number is required."]}) from None
