"""The bank as the accounting service shows it (read-only): accounts, balances, payments.

`/1/accounts` is page-numbered (name and bank account number per id); `/1/pulse` gives each
account's current balance, currency and last update, and their sum in the company's currency;
`/1/payments` is a bare list (no paging) of one record per account and day, narrowed by day
only (`date`, `from_date`, `to_date`, YYYY-MM-DD). The API has no operation to record a
payment, so nothing here writes.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ACCOUNTS = "/1/accounts/"
PULSE = "/1/pulse/"
PAYMENTS = "/1/payments/"
PAYMENT_PARAMS = ("date", "from_date", "to_date")
ACCOUNTS_PAGE_SIZE = 100


def accounts(client) -> list[dict]:
    """Every bank account of the company (all pages): id, name, account_number."""
    return list(client.iter_all(ACCOUNTS, {"page_size": ACCOUNTS_PAGE_SIZE},
                                resource="accounts"))


def pulse(client) -> dict:
    """The balances: {"summary": int, "accounts": [{id, currency, current_balance, ...}]}."""
    body = client.get(PULSE)
    return body if isinstance(body, dict) else {"summary": None, "accounts": []}


def payments_page(client, params: Mapping[str, Any] | None = None) -> list[dict]:
    """The payments (per account and day) for the day filters given; the API sends them all."""
    wanted = {key: value for key, value in (params or {}).items()
              if key in PAYMENT_PARAMS and value}
    body = client.get(PAYMENTS, wanted or None)
    return body if isinstance(body, list) else []
