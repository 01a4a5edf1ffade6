"""Helpers of the partner card tests: a partner with open, paid and cancelled documents in two
currencies (and a namesake partner), the API's own records, and the sums the card must show,
computed here independently of the app."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import requests

from app.numbers import company_today
from tests.sandbox.expense_support import assignment

BUCKET_LIMITS = {"1-30": (1, 30), "31-60": (31, 60), "61-90": (61, 90), "90+": (91, 10**6)}


def expected_sums(records: list[dict], today: date) -> dict[str, dict[str, Decimal]]:
    """Open, not-due and bucket sums per currency, computed independently of the app."""
    found: dict[str, dict[str, Decimal]] = {}
    for record in records:
        sums = found.setdefault(record["code"], {k: Decimal(0) for k in
                                                 ("open", "not_due", *BUCKET_LIMITS)})
        gross = Decimal(record["gross"])
        sums["open"] += gross
        due = date.fromisoformat(record["due_at"]) if record.get("due_at") else None
        late = (today - due).days if due else 0
        key = next((k for k, (lo, hi) in BUCKET_LIMITS.items() if lo <= late <= hi), "not_due")
        sums[key] += gross
    return found


def currencies(api) -> dict[str, int]:
    return {row["code"]: row["id"] for row in api.get("/2/currencies/").json()}


def new_partner(api, name: str) -> dict:
    response = api.post("/2/partners/create/", json={"name": name, "is_customer": True,
                                                    "is_vendor": True})
    assert response.status_code == 201, response.text
    return response.json()


def income(api, partner: dict, days_late: int, gross: str, currency: int, **extra) -> dict:
    due = (company_today() - timedelta(days=days_late)).isoformat()
    body = {"company_id": api.company.id, "type": 1, "partner_id": partner["id"],
            "partner_name": partner["name"], "due_at": due, "gross_amount": gross,
            "net_amount": gross, "vat_amount": "0", "currency": currency, **extra}
    response = requests.post(f"{api.base}/_sandbox/incomes/", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def expense(api, partner: dict, days_late: int, gross: str, **extra) -> dict:
    due = (company_today() - timedelta(days=days_late)).isoformat()
    body = {"company_id": api.company.id, "partner": partner["id"], "due_at": due,
            "issued_at": (company_today() - timedelta(days=days_late + 8)).isoformat(),
            "invoice_number": f"E-{days_late}-{gross}", **extra}
    response = requests.post(f"{api.base}/_sandbox/expenses/", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def rows(cat, gross: str) -> list[dict]:
    return [assignment(cat, net=gross, vat="0.00", gross=gross)]


def seed(api, cat) -> tuple[dict, dict]:
    """A partner with open, paid and cancelled documents in two currencies, and a namesake."""
    codes = currencies(api)
    partner, other = new_partner(api, "Kor Kft."), new_partner(api, "Kor Kft. Bt.")
    for late, gross, code in ((-5, "1000.00", "HUF"), (10, "2500.50", "HUF"),
                              (45, "300.00", "EUR"), (75, "12000.00", "HUF"),
                              (200, "99.99", "EUR")):
        income(api, partner, late, gross, codes[code])
    income(api, partner, 20, "777.00", codes["HUF"],
            payments=[{"paid_at": company_today().isoformat(), "amount": "777.00"}])
    income(api, partner, 20, "555.00", codes["HUF"], is_cancelled=True)
    income(api, other, 20, "4444.00", codes["HUF"])
    for late, gross in ((3, "800.00"), (95, "1500.00")):
        expense(api, partner, late, gross, assignments=rows(cat, gross))
    expense(api, partner, 40, "900.00", paid_status=2,
             assignments=rows(cat, "900.00"))
    expense(api, other, 40, "123.00", assignments=rows(cat, "123.00"))
    return partner, {v: k for k, v in codes.items()}


def api_records(api, partner: dict, codes: dict) -> tuple[list[dict], list[dict]]:
    """The partner's open incomes and expenses as the API lists them, reduced to the sums'
    inputs (gross of an expense = sum of its rows)."""
    incomes = api.get("/1/incomes", params={"partner": partner["id"],
                                             "page_size": 100}).json()["results"]
    incomes = incomes["incomes"] if isinstance(incomes, dict) else incomes
    expenses = api.get("/2/expenses", params={"page_size": 100}).json()["results"]
    expenses = expenses["expenses"] if isinstance(expenses, dict) else expenses
    receivables = [{"code": codes[i["currency"]], "gross": i["gross_amount"],
                    "due_at": i["due_at"]} for i in incomes
                   if i["paid_status"] != 2 and not i.get("is_cancelled")
                   and i.get("invoice_type") != 1]  # a storno reverses a cancelled document
    payables = [{"code": codes[e["currency"]], "due_at": e["due_at"],
                 "gross": str(sum(Decimal(a["gross_amount"]) for a in e["assignments"]))}
                for e in expenses if e["partner"] == partner["id"] and e["paid_status"] != 2]
    return receivables, payables
