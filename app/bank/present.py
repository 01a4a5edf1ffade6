"""What the bank page shows: account rows with their balances, one row per transaction, and the
footer's count and sum per currency; and the payment history an income or expense page shows.

Where each figure comes from: the accounts' names and bank account numbers from the account
list, each balance, its currency and its "as of" time from the balances read (pulse), the
transactions from the payments read (one record per account and day, flattened here).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from flask_babel import lazy_gettext as _l

from app.exports import amount as amount_cell
from app.exports import day, day_and_time
from app.identifiers import show_bank_account
from app.numbers import as_utc, format_number, to_decimal
from app.templating import method_label

PAID = 2


@dataclass(frozen=True)
class Total:
    """The footer of one currency: how many rows and what they add up to."""

    currency: str
    count: int
    amount: Decimal


def account_rows(accounts: list[dict], pulse: dict) -> list[dict]:
    """One row per account: the list's name and number, the pulse's balance and time.

    An account the balances do not name yet shows no balance; one only the balances name is
    still shown (with the name and number the balances give).
    """
    balances = {item.get("id"): item for item in pulse.get("accounts") or []}
    listed = {account.get("id") for account in accounts}
    extra = [item for item in pulse.get("accounts") or [] if item.get("id") not in listed]
    return [_account_row(account, balances.get(account.get("id")))
            for account in [*accounts, *extra]]


def _account_row(account: dict, balance: dict | None) -> dict:
    balance = balance or {}
    return {"id": account.get("id"), "name": account.get("name") or balance.get("name") or "",
            "account_number": account.get("account_number") or balance.get("account_number"),
            "currency": balance.get("currency"),
            "balance": to_decimal(balance.get("current_balance")),
            "as_of": as_utc(balance.get("last_updated"))}


def balance_totals(rows: list[dict]) -> list[Total]:
    """The balances added up per currency (accounts without a balance left out)."""
    return _totals((row["currency"], row["balance"]) for row in rows
                   if row["balance"] is not None and row["currency"])


def transaction_rows(payments: list[dict], account_names: dict) -> list[dict]:
    """One row per transaction, newest day first as the API sends them, with its account name."""
    rows = []
    for payment in payments:
        account = payment.get("account")
        for item in payment.get("transactions") or []:
            rows.append(_transaction_row(payment, item, account, account_names.get(account)))
    return rows


def _transaction_row(payment: dict, item: dict, account, account_name) -> dict:
    expense_id = item.get("expense_id")
    return {"id": item.get("id"), "date": payment.get("date"), "account": account,
            "account_name": account_name or "", "amount": to_decimal(item.get("amount")),
            "currency": item.get("currency") or "", "partner": item.get("partner") or "",
            "invoice_number": item.get("invoice_number") or "",
            "expense_id": expense_id, "matched": expense_id is not None}


def row_totals(rows: list[dict]) -> list[Total]:
    """The shown rows' count and sum per currency."""
    return _totals((row["currency"], row["amount"]) for row in rows)


def _totals(pairs) -> list[Total]:
    counts: dict[str, int] = defaultdict(int)
    sums: dict[str, Decimal] = defaultdict(Decimal)
    for currency, amount in pairs:
        counts[currency] += 1
        sums[currency] += amount or Decimal(0)
    return [Total(code, counts[code], sums[code]) for code in sorted(counts)]


def unmatched_count(rows: list[dict]) -> int:
    """How many of the rows name no expense."""
    return sum(1 for row in rows if not row["matched"])


def newest(rows: list[dict]):
    """The latest "as of" time of the balances, None when none has one."""
    times = [row["as_of"] for row in rows if row["as_of"] is not None]
    return max(times) if times else None


@dataclass(frozen=True)
class Payment:
    """One payment of a record: day, amount and currency, method, the account it went through;
    bank: the bank page's filter that finds it (only for a payment the bank made)."""

    date: str | None
    amount: Decimal | None
    currency: str
    method: str | None
    method_label: str
    account: str
    bank: dict = field(default_factory=dict)


@dataclass(frozen=True)
class History:
    """A record's payments (fields=payment_history) with what they add up to and what is left."""

    rows: list[Payment]
    paid: Decimal
    remaining: Decimal
    currency: str
    # Paid by its status with no payment listed (cash, or settled outside the bank feed): the
    # sum of no payments is not what was paid, so the page shows no total paid.
    unrecorded: bool = False


def payment_history(record: dict, gross, code: str | None, accounts: list | None) -> History:
    """The history rows (accounts: the bank account list, naming each payment's account), the
    total paid (their sum) and the remaining amount: the API's own unpaid_amount where it sends
    one, else the gross less what was paid (nothing once the record is paid)."""
    names = {item.get("id"): item.get("name") for item in accounts or []}
    rows = [_payment(item, record, code, names)
            for item in record.get("payment_history") or []]
    paid = sum((row.amount or Decimal(0) for row in rows), Decimal(0))
    return History(rows, paid, _remaining(record, to_decimal(gross) or Decimal(0), paid),
                   code or "", unrecorded=not rows and record.get("paid_status") == PAID)


def _payment(item: dict, record: dict, code: str | None, account_names: dict) -> Payment:
    account_id = item.get("account")
    # An income's payment names no account: the income's own "paid through" is where it went.
    account = account_names.get(account_id) or item.get("paid_through") or (
        record.get("paid_through") if account_id is None else f"#{account_id}")
    amount = to_decimal(item.get("amount"))
    return Payment(item.get("date"), amount, item.get("currency") or code or "",
                   item.get("method"), method_label(item.get("method")), account or "",
                   _bank_filter(item.get("date"), amount) if account_id is not None else {})


def _bank_filter(day: str | None, amount: Decimal | None) -> dict:
    """The bank page's URL filter showing this payment: its day and its amount (as typed)."""
    typed = format_number(amount, places=2, grouping=False) if amount is not None else ""
    return {key: value for key, value in (("from_date", day), ("to_date", day),
                                          ("amount_min", typed), ("amount_max", typed)) if value}


def _remaining(record: dict, gross: Decimal, paid: Decimal) -> Decimal:
    given = to_decimal(record.get("unpaid_amount"))
    if given is not None:
        return given
    if record.get("paid_status") == PAID:
        return Decimal(0)
    return max(gross - paid, Decimal(0))


# The page's two exports: the accounts with their balances, the filtered transactions.

def accounts_header() -> list[str]:
    """The accounts export's column titles in the page's language."""
    return [str(text) for text in (_l("Name"), _l("Bank account number"), _l("Currency"),
                                   _l("Balance"), _l("As of"), _l("Time"))]


def accounts_row(row: dict, _lookups: dict) -> list:
    """One account row (account_rows) as cells: the balance a number, its time the day and the
    hour in the company's time zone, as the page shows it."""
    return [row["name"], show_bank_account(row["account_number"]), row["currency"] or "",
            amount_cell(row["balance"]), *day_and_time(row["as_of"])]


def transactions_header() -> list[str]:
    """The transactions export's column titles in the page's language."""
    return [str(text) for text in (_l("Date"), _l("Bank account"), _l("Partner"),
                                   _l("Invoice number"), _l("Amount"), _l("Currency"),
                                   _l("Expense"))]


def transactions_row(row: dict, _lookups: dict) -> list:
    """One transaction row (transaction_rows) as cells: the day a date, the amount a number;
    the expense it pays by its id, or "Unmatched"."""
    expense = row["expense_id"]
    return [day(row["date"]), row["account_name"], row["partner"], row["invoice_number"],
            amount_cell(row["amount"]), row["currency"],
            str(expense) if expense is not None else str(_l("Unmatched"))]
