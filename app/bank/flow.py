"""What the bank page reads and works out: the four reads side by side within the page's time
budget, the rows the filter keeps, their totals and the page of them shown.

/1/payments has no paging (the API sends every payment of the day range at once), so the rows
are filtered and paged here, and the totals cover every row the filter keeps, not just the
page shown. Nothing is stored: every view reads the bank afresh, so Bookdesk never holds a
payment of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from app.bank import present
from app.bank.forms import Filter
from app.forms.display import company_settings
from app.upstream import bank
from app.upstream import parallel as page_budget

PAGE_SIZE = 50


@dataclass(frozen=True)
class BankView:
    """Everything the page shows, read once per view."""

    accounts: list[dict]
    balance_totals: list[present.Total]
    summary: int | None
    company_currency: str | None
    as_of: datetime | None
    rows: list[dict]
    count: int
    totals: list[present.Total]
    unmatched: int
    page: int
    page_size: int = PAGE_SIZE


def reads(client, flt: Filter | None) -> dict:
    """The page's upstream reads as run_parallel tasks (payments only for a valid filter)."""
    tasks = {"accounts": partial(bank.accounts, client), "pulse": partial(bank.pulse, client),
             "company": partial(company_settings, client)}
    if flt is not None:
        tasks["payments"] = partial(bank.payments_page, client, flt.api_params())
    return tasks


def bank_view(client, flt: Filter | None) -> BankView:
    """Read the bank side by side and build the view for the filter (None: refused filter)."""
    found = page_budget.read(reads(client, flt))
    accounts = present.account_rows(found["accounts"], found["pulse"])
    names = {row["id"]: row["name"] for row in accounts}
    rows = present.transaction_rows(found.get("payments") or [], names)
    kept = [row for row in rows if flt.keeps(row)] if flt is not None else []
    page = _page_in_range(flt.page if flt else 1, len(kept))
    return BankView(accounts, present.balance_totals(accounts), found["pulse"].get("summary"),
                    (found["company"] or {}).get("default_currency_name"),
                    present.newest(accounts),
                    kept[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], len(kept),
                    present.row_totals(kept), present.unmatched_count(kept), page)


def _page_in_range(page: int, count: int) -> int:
    """The asked page, or the last one when the filter left fewer rows than it starts at."""
    last = max(1, -(-count // PAGE_SIZE))
    return min(page, last)


def account_export(client) -> list[dict]:
    """Every account row with its balance, as the page's accounts table shows them."""
    found = page_budget.read(_account_reads(client))
    return present.account_rows(found["accounts"], found["pulse"])


def transaction_export(client, flt: Filter) -> list[dict]:
    """Every transaction row the filter keeps (all of its pages), in the page's order, each
    with the account name the page gives it."""
    found = page_budget.read({**_account_reads(client), "payments": partial(
        bank.payments_page, client, flt.api_params())})
    names = {row["id"]: row["name"]
             for row in present.account_rows(found["accounts"], found["pulse"])}
    return [row for row in present.transaction_rows(found["payments"], names) if flt.keeps(row)]


def _account_reads(client) -> dict:
    return {"accounts": partial(bank.accounts, client), "pulse": partial(bank.pulse, client)}
