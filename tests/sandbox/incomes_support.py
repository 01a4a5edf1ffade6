"""Helpers for the income and partner tests: catalogue ids, payloads, fixture incomes."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import requests

TABLES = {"revenue_types": "revenue_type", "tags": "tag", "ledger_numbers": "ledger_number"}


@dataclass
class Catalogue:
    """Ids of a company's seeded catalogue, in seed order."""

    revenue_types: list[int]
    tags: list[int]
    ledger_numbers: list[int]
    vats: list[int]
    currencies: dict[str, int]


def read_catalogue(db_path, company_id: int) -> Catalogue:
    """Read the seeded ids straight from the sandbox file (read-only)."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        ids = {key: [r[0] for r in con.execute(
            f"SELECT id FROM {table} WHERE company_id=? ORDER BY id", (company_id,))]  # noqa: S608
            for key, table in TABLES.items()}
        vats = [r[0] for r in con.execute(
            "SELECT id FROM vat_category WHERE company_id=? AND type='revenue' ORDER BY id",
            (company_id,))]
        currencies = dict(con.execute("SELECT code, id FROM currency"))
    finally:
        con.close()
    return Catalogue(vats=vats, currencies=currencies, **ids)


def assignment(cat: Catalogue, net="1000.00", gross="1270.00", **extra) -> dict:
    """A valid assignment payload."""
    return {"revenue_type": cat.revenue_types[0], "net_amount": net, "gross_amount": gross,
            "vat": cat.vats[0], "tags": [cat.tags[0]], **extra}


def income_body(cat: Catalogue, number: str = "BIZ-2025-001", **extra) -> dict:
    """A valid POST /2/incomes/create/ payload."""
    body = {"invoice_number": number, "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
            "due_at": "2025-03-20", "net_amount": "1000.00", "vat_amount": "270.00",
            "gross_amount": "1270.00", "partner_name": "Alfa Kft.",
            "assignments": [assignment(cat)]}
    body.update(extra)
    return body


def create(api, cat: Catalogue, number: str = "BIZ-2025-001", **extra) -> dict:
    """Create an accounting document through the public API; asserts 201."""
    resp = api.post("/2/incomes/create/", json=income_body(cat, number, **extra))
    assert resp.status_code == 201, resp.text
    return resp.json()


def make_income(api, **fields) -> dict:
    """Create an income of any type / state with the sandbox fixture maker."""
    resp = requests.post(f"{api.base}/_sandbox/incomes/",
                         json={"company_id": api.company.id, **fields}, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def set_state(api, income_id: int, **state) -> dict:
    """Change an income's state through /_sandbox/ (processed, booked, source...)."""
    resp = requests.patch(f"{api.base}/_sandbox/incomes/{income_id}/", json=state, timeout=10)
    assert resp.status_code == 200, resp.text
    return resp.json()


def detail(api, income_id: int, **params) -> dict:
    """GET /1/incomes/{id}/; asserts 200."""
    resp = api.get(f"/1/incomes/{income_id}/", params=params)
    assert resp.status_code == 200, resp.text
    return resp.json()


def listing(api, **params) -> dict:
    """GET /1/incomes with params; asserts 200."""
    resp = api.get("/1/incomes", params=params)
    assert resp.status_code == 200, resp.text
    return resp.json()


def numbers(body: dict) -> list[str]:
    """Invoice numbers of a list response, in order."""
    return [row["invoice_number"] for row in body["results"]["incomes"]]
