"""The practice page's reads: one row per signed-in company, the rows read side by side.

A row holds what a bookkeeping office looks at first for each company: the review queue's
size, the overdue amount (unpaid incomes past their due date, per currency), the VAT due for
the current month (output VAT of the incomes fulfilled in it minus input VAT of its expenses,
in forints at each document's exchange rate) and the expenses not yet processed. The review
queue and the overdue incomes are the dashboard's cards' own queries (app/dashboard/service.py),
so the practice page and each company's dashboard agree.

A company signed in through OAuth2 has its figures read from /2/ only: the API takes a Bearer
token on /2/ paths only, so the incomes' figures say that they need an API token.
No request objects here: the view passes the clients and the queries' parameters in.
"""
from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from app.dashboard.service import cards
from app.forms.filters import ListQuery
from app.incomes.forms import list_query as income_query
from app.numbers import to_decimal
from app.upstream import UpstreamError, catalog, run_parallel
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api

PAGE_SIZE = 100
UNPROCESSED = "unprocessed"
NEEDS_TOKEN = "needs_api_token"  # noqa: S105 (a reason code)
FAILED = "failed"


@dataclass
class Row:
    """One company's figures; None where a figure could not be read (`missing` says why)."""

    company_id: int
    name: str
    review: int | None = None
    overdue: dict[str, Decimal] | None = None
    vat_due: Decimal | None = None
    unprocessed: int | None = None
    missing: dict[str, str] = field(default_factory=dict)


def month_bounds(today: date) -> tuple[str, str]:
    """The first and last day of today's month, ISO."""
    last = calendar.monthrange(today.year, today.month)[1]
    return today.replace(day=1).isoformat(), today.replace(day=last).isoformat()


def queries(today: date) -> dict[str, ListQuery]:
    """The income lists behind a row: the review queue, overdue incomes, this month's incomes
    by fulfilment date (the dashboard's cards for the first two)."""
    start, end = month_bounds(today)
    card = cards(today)
    return {"review": card["needs_review"], "overdue": card["overdue"],
            "vat_incomes": income_query({"date_field": "fulfilled_at", "date_from": start,
                                         "date_to": end})}


def rows(companies: list[dict], clients: dict[int, object], params: dict[str, dict],
         today: date) -> list[Row]:
    """A row per company ({id, name}), each read with its own client, all side by side."""
    tasks: dict[str, Callable[[], Row]] = {
        str(item["id"]): _task(item, clients[item["id"]], params, today) for item in companies}
    found = run_parallel(tasks)
    return [found[str(item["id"])] for item in companies]


def _task(item: dict, client, params: dict[str, dict], today: date) -> Callable[[], Row]:
    return lambda: company_row(Row(item["id"], item["name"]), client, params, today)


def company_row(row: Row, client, params: dict[str, dict], today: date) -> Row:
    """Fill a row's figures; a figure the upstream refused is left None and named."""
    figures = {
        "review": lambda: income_count(client, params["review"]),
        "overdue": lambda: overdue_amounts(client, params["overdue"]),
        "vat_due": lambda: vat_due(client, params["vat_incomes"], today),
        "unprocessed": lambda: unprocessed_expenses(client),
    }
    for name, read in figures.items():
        if name != "unprocessed" and not client.reaches(income_api.LIST):
            row.missing[name] = NEEDS_TOKEN
            continue
        try:
            setattr(row, name, read())
        except UpstreamError:
            row.missing[name] = FAILED
    return row


def income_count(client, params: dict) -> int:
    """How many incomes the list with these parameters holds."""
    return income_api.list_page(client, {**params, "page": 1, "page_size": 1}).count


def overdue_amounts(client, params: dict) -> dict[str, Decimal]:
    """Gross total of the overdue list's incomes per currency code."""
    codes = catalog.names(client, "currencies", "code")
    totals: dict[str, Decimal] = {}
    for income in income_api.iter_all(client, {**params, "page": 1, "page_size": PAGE_SIZE}):
        code = codes.get(income.get("currency"), str(income.get("currency") or ""))
        totals[code] = totals.get(code, Decimal(0)) + (to_decimal(income.get("gross_amount"))
                                                      or Decimal(0))
    return totals


def vat_due(client, income_params: dict, today: date) -> Decimal:
    """Output VAT of this month's incomes minus input VAT of its expenses, in forints
    (by fulfilment date; each amount at its document's exchange rate)."""
    start, end = month_bounds(today)
    incomes = income_api.iter_all(client, {**income_params, "page": 1,
                                           "page_size": PAGE_SIZE})
    expenses = _expenses(client, {"date_field": "fulfilled_at", "from_date": start,
                                  "to_date": end})
    return _vat_in_forints(incomes, _header_vat) - _vat_in_forints(expenses, expense_vat)


def _vat_in_forints(records, vat_of: Callable[[dict], Decimal]) -> Decimal:
    total = Decimal(0)
    for record in records:
        total += vat_of(record) * (to_decimal(record.get("exchange_rate")) or Decimal(1))
    return total.quantize(Decimal(1))


def _header_vat(record: dict) -> Decimal:
    return to_decimal(record.get("vat_amount")) or Decimal(0)


def expense_vat(expense: dict) -> Decimal:
    """An expense's VAT: the sum of its assignments' (the categorised lines), else its header's."""
    lines = [to_decimal(line.get("vat_amount")) for line in expense.get("assignments") or []]
    return sum((v for v in lines if v is not None), Decimal(0)) if lines else _header_vat(expense)


def unprocessed_expenses(client) -> int:
    """How many expenses are not processed yet (accounting status "unprocessed")."""
    found = _expenses(client, {"is_processed": "false"})
    return sum(1 for expense in found if expense.get("accounting_status") == UNPROCESSED)


def _expenses(client, params: dict) -> list[dict]:
    pages = expense_api.iter_pages(client, {**params, "page_size": PAGE_SIZE})
    return [expense for page in pages for expense in page.items]
