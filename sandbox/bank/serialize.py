"""The bank's records as the live API shapes them: amounts and rates as decimal strings."""
from __future__ import annotations

from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal

from sandbox.bank.model import BankAccount, BankPayment, BankTransaction
from sandbox.core.model import money_str


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
            "invoice_number": row.invoice_number, "exchange_rate": f"{row.exchange_rate:.4f}"}


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
