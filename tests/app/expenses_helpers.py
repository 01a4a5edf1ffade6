"""Helpers for the expense tests: catalogue ids, fixture expenses in any state, sample files."""
from __future__ import annotations

from dataclasses import dataclass

from sandbox.core.demo_files import minimal_pdf, tiny_png
from tests.sandbox.expense_support import artifact, set_state  # noqa: F401 (shared with app tests)
from tests.sandbox.expense_support import make_expense as sandbox_make_expense

PDF = minimal_pdf("Szamla KOLTSEG-1")
PNG = tiny_png(5)
XML = b'<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><Number>X-1</Number></Invoice>\n'
FAKE_PDF = b"MZ\x90\x00 this is an executable pretending to be a PDF"


@dataclass
class Ids:
    """Catalogue ids of a test company (expense types, cost VATs, ledger numbers by code)."""

    expense_types: list[int]
    tags: list[int]
    vats: list[int]
    ledger_numbers: dict[str, int]


def catalogue(api) -> Ids:
    """Read the company's expense catalogue through the public API."""
    def ids(path, keep=lambda item: True):
        return [item["id"] for item in api.get(path).json() if keep(item)]

    return Ids(ids("/2/expense-types/"), ids("/2/tags/"),
               ids("/2/accounting/vat-categories/", lambda i: i["type"] == "cost"),
               {n["code"]: n["id"] for n in api.get("/2/accounting/ledger-numbers/").json()})


def row(ids: Ids, net="1000.00", vat="270.00", gross="1270.00", **extra) -> dict:
    """An assignment payload."""
    return {"expense_type": ids.expense_types[0], "net_amount": net, "vat_amount": vat,
            "gross_amount": gross, "vat": ids.vats[0], **extra}


def make_expense(api, ids: Ids | None = None, **spec) -> dict:
    """An expense in any state through /_sandbox/expenses/ (one assignment when ids given)."""
    if ids is not None and "assignments" not in spec:
        spec["assignments"] = [row(ids)]
    return sandbox_make_expense(api, **spec)


def expense(api, expense_id: int) -> dict:
    """The expense as the API has it now."""
    return api.get(f"/2/expenses/{expense_id}/").json()


def list_args(sandbox_log, company_id: int) -> list[dict]:
    """Query arguments of the expense list requests the sandbox received."""
    return [entry["args"] for entry in sandbox_log.entries(company_id=company_id, method="GET")
            if entry["path"].rstrip("/") == "/2/expenses"]


def patches(sandbox_log, company_id: int) -> list[dict]:
    """PATCH bodies the sandbox received for the company's expenses."""
    return [entry["body"] for entry in sandbox_log.entries(company_id=company_id, method="PATCH")
            if entry["path"].startswith("/2/expenses/")]


def creates(sandbox_log, company_id: int) -> list[dict]:
    """Expense create requests the sandbox received (entries, with status)."""
    return sandbox_log.entries(company_id=company_id, method="POST", path="/2/expenses/create")
