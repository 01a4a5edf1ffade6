"""Helpers for the bank tests: open accounts and pay expenses through /_sandbox/bank/."""
from __future__ import annotations

import requests


def open_account(api, name: str = "Főszámla", number: str = "11700024-00000099-00000000",
                 **spec) -> dict:
    """Open a bank account for the test company; asserts 201."""
    resp = requests.post(f"{api.base}/_sandbox/bank/accounts/", timeout=10, json={
        "company_id": api.company.id, "name": name, "account_number": number, **spec})
    assert resp.status_code == 201, resp.text
    return resp.json()


def settle(api, expense_id: int, paid_status: int, status: int = 200, **spec) -> dict:
    """Pay (or unpay) an expense through the bank; asserts the status."""
    resp = requests.post(f"{api.base}/_sandbox/bank/settle/", timeout=10, json={
        "expense_id": expense_id, "paid_status": paid_status, **spec})
    assert resp.status_code == status, resp.text
    return resp.json()


def transactions_of(api, expense_id: int) -> list[dict]:
    """Every /1/payments transaction that names the expense."""
    days = api.get("/1/payments/").json()
    return [t for day in days for t in day["transactions"] if t["expense_id"] == expense_id]
