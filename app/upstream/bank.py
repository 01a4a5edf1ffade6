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

from .errors import Unavailable

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
    return _shaped(client.get(PULSE), dict, PULSE)


def payments_page(client, params: Mapping[str, Any] | None = None) -> list[dict]:
    """The payments (per account and day) for the day filters given; the API sends them all."""
    wanted = {key: value for key, value in (params or {}).items()
              if key in PAYMENT_PARAMS and value}
    return _shaped(client.get(PAYMENTS, wanted or None), list, PAYMENTS)


def _shaped(body: Any, kind: type, path: str) -> Any:
    """The body when it has the documented root type; else the service is not answering right."""
    if not isinstance(body, kind):
        raise Unavailable(f"malformed body: {type(body).__name__}", method="GET", path=path)
    return body
