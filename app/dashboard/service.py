"""The dashboard area's reads (no request objects here: the views pass clients and queries in).

The company dashboard: the list behind each count card and each amount, the counts, the
amounts (app/totals.py, over the whole list a figure links to), taxes and salaries of the
month, the 12-month chart, the latest incomes and their cancellation words, read side by side.
Every amount is built from a ListQuery, the same object that makes its link: the figure sums
the very rows the linked list shows (its totals footer says the same number).

The practice page: one row per signed-in company, the rows read side by side. A row holds what
a bookkeeping office looks at first for each company: the review queue's size, the overdue
amount (unpaid incomes past their due date, per currency), the VAT due for the current month
(output VAT of the incomes fulfilled in it minus input VAT of its expenses, in forints at each
document's exchange rate) and the expenses not yet processed. The review queue and the overdue
incomes are the dashboard's cards' own queries (`cards`), so the practice page and each
company's dashboard agree. A company signed in through OAuth2 has its figures read from /2/
only: the API takes a Bearer token on /2/ paths only, so the incomes' figures say that they
need an API token.
"""
from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from functools import partial

from app.expenses.forms import list_query as expense_query
from app.forms.display import company_settings
from app.forms.filters import ListQuery
from app.incomes.flow import reversed_numbers
from app.incomes.forms import list_query as income_query
from app.incomes.present import cancel_label, cancel_state
from app.numbers import to_decimal
from app.review.forms import queue_query
from app.taxes import flow as tax_flow
from app.taxes import present as tax_present
from app.taxes.forms import api_params as tax_params
from app.taxes.forms import filter_form as tax_filter
from app.totals import READERS, Totals, add_up, list_totals, read_all
from app.upstream import NeedsApiToken, NotFound, UpstreamError, catalog, run_parallel
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api

RECENT_SIZE = 10
# /2/expenses is a cursor list without a count: one page of this size, "100+" beyond it.
EXPENSE_COUNT_CAP = 100
INCOME_CARDS = ("needs_review", "unpaid", "overdue")


def cards(today: date) -> dict[str, ListQuery]:
    """The list behind each count card: the card counts its rows and links to it."""
    yesterday = (today - timedelta(days=1)).isoformat()
    return {
        "needs_review": queue_query({}),
        "unpaid": income_query({"paid_status": "1"}),
        "overdue": income_query({"paid_status": "1", "date_field": "due_at",
                                 "date_to": yesterday}),
        "unpaid_expenses": expense_query({"is_paid": "false"}),
    }


def _or_none(call, *args, **kwargs):
    """The call's result, or None where the upstream lacks the list or does not take this
    sign-in's token for it (OAuth2 on /1/): the card says so."""
    try:
        return call(*args, **kwargs)
    except (NotFound, NeedsApiToken):
        return None


def _income_count(api, params: dict | None) -> int | None:
    if params is None:
        return None
    page = _or_none(income_api.list_page, api, {**params, "page": 1, "page_size": 1})
    return page.count if page else None


def _expense_count(api, params: dict | None) -> dict | None:
    if params is None:
        return None
    page = _or_none(expense_api.list_page, api, {**params, "page_size": EXPENSE_COUNT_CAP})
    return {"count": len(page.items), "more": bool(page.next)} if page else None


def _recent(api) -> list | None:
    page = _or_none(income_api.list_page, api,
                    {"page_size": RECENT_SIZE, "ordering": "-issued_at"})
    return page.items if page else None


def dashboard_data(api, queries: dict[str, ListQuery], more: dict | None = None) -> dict:
    """Run the dashboard's independent upstream reads side by side, with `more` tasks (each
    card's parameters read here, in the request: the list's reader needs its context)."""
    params = {key: query.params() for key, query in queries.items()}
    calls = {key: partial(_income_count, api, params[key]) for key in INCOME_CARDS}
    return run_parallel({
        **(more or {}),
        **calls,
        "unpaid_expenses": partial(_expense_count, api, params["unpaid_expenses"]),
        "recent": lambda: _recent(api),
        "currencies": lambda: _or_none(catalog.names, api, "currencies", "code") or {},
    })


def cancel_labels(api, incomes: list[dict]) -> dict[int, str]:
    """Income id -> "Reversed" or "Cancelled" for the cancelled ones among incomes."""
    numbers = reversed_numbers(api, incomes)
    return {income["id"]: cancel_label(cancel_state(income, numbers)) for income in incomes
            if income.get("is_cancelled")}


PERIOD_MONTHS = {"monthly": 1, "quarterly": 3, "yearly": 12}
CHART_MONTHS = 12
CHART_RANGES = ("chart_in", "chart_out")


@dataclass(frozen=True)
class Figure:
    """An amount on the dashboard: the list it sums (kind, query) and which amount it takes."""

    kind: str  # "incomes" or "expenses"
    query: ListQuery
    amount: str  # net_amount, vat_amount or gross_amount


def month_start(day: date, back: int = 0) -> date:
    """The first day of day's month, `back` months earlier."""
    index = day.year * 12 + day.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def month_end(day: date) -> date:
    """The last day of day's month."""
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def vat_period(today: date, period_type: str | None) -> tuple[str, date, date]:
    """(type, first day, last day) of the VAT period holding today; monthly when unknown."""
    kind = period_type if period_type in PERIOD_MONTHS else "monthly"
    length = PERIOD_MONTHS[kind]
    first = date(today.year, (today.month - 1) // length * length + 1, 1)
    return kind, first, month_end(month_start(first, -(length - 1)))


def _incomes(args: dict) -> ListQuery:
    return income_query({"cancelled": "no", **args})


def _income_range(field: str, first: date, last: date) -> ListQuery:
    return _incomes({"date_field": field, "date_from": first.isoformat(),
                     "date_to": last.isoformat()})


def _expense_range(field: str, first: date, last: date) -> ListQuery:
    return expense_query({"date_field": field, "created_from": first.isoformat(),
                          "created_to": last.isoformat()})


def figures(today: date, period: tuple[str, date, date]) -> dict[str, Figure]:
    """Every amount of the dashboard and the list it sums."""
    year, month = today.replace(month=1, day=1), month_start(today)
    _kind, first, last = period
    return {
        "revenue_month": Figure("incomes", _income_range("issued_at", month, today), "net_amount"),
        "revenue_year": Figure("incomes", _income_range("issued_at", year, today), "net_amount"),
        "expense_month": Figure("expenses", _expense_range("issued_at", month, today),
                                "net_amount"),
        "expense_year": Figure("expenses", _expense_range("issued_at", year, today),
                               "net_amount"),
        "receivables": Figure("incomes", _incomes({"paid_status": "open"}), "gross_amount"),
        "receivables_overdue": Figure("incomes", _incomes({"tab": "overdue"}), "gross_amount"),
        "payables": Figure("expenses", expense_query({"is_paid": "false"}), "gross_amount"),
        "payables_overdue": Figure("expenses", expense_query({"tab": "overdue"}),
                                   "gross_amount"),
        "vat_out": Figure("incomes", _income_range("fulfilled_at", first, last), "vat_amount"),
        "vat_in": Figure("expenses", _expense_range("fulfilled_at", first, last),
                         "vat_amount"),
    }


def chart_figures(today: date) -> dict[str, Figure]:
    """Revenue and expense (net) of each of the last 12 months, by issue date (the links)."""
    found = {}
    for back in range(CHART_MONTHS - 1, -1, -1):
        first = month_start(today, back)
        key = first.strftime("%Y-%m")
        found[f"chart_in_{key}"] = Figure("incomes", _income_range("issued_at", first,
                                                                   month_end(first)),
                                          "net_amount")
        found[f"chart_out_{key}"] = Figure("expenses", _expense_range(
            "issued_at", first, month_end(first)), "net_amount")
    return found


def chart_ranges(today: date) -> dict[str, Figure]:
    """The two 12-month lists the chart reads once each and splits by issue month."""
    first = month_start(today, CHART_MONTHS - 1)
    return {"chart_in": Figure("incomes", _income_range("issued_at", first, month_end(today)),
                               "net_amount"),
            "chart_out": Figure("expenses", _expense_range("issued_at", first,
                                                           month_end(today)), "net_amount")}


def _by_month(api, figure: Figure, params: dict | None, codes: dict) -> dict[str, Totals]:
    """The range's Totals per issue month (YYYY-MM): each equals that month's own list, whose
    filter differs only in the dates; every month marked partial past ROW_LIMIT rows."""
    list_page, amounts = READERS[figure.kind]
    records = read_all(api, list_page, params) if params is not None else []
    if records is None:
        return {"": Totals([], whole=False)}
    months: dict[str, list] = {}
    for record in records:
        months.setdefault(str(record.get("issued_at") or "")[:7], []).append(record)
    return {month: add_up(rows, codes, amounts) for month, rows in months.items()}


def month_totals(found: dict, key: str, month: str) -> Totals | None:
    """One month's Totals out of a chart range's split (empty when the month has no rows)."""
    split = found.get(key)
    if split is None:
        return None
    if "" in split and not split[""].whole:
        return split[""]
    return split.get(month) or Totals([])


def dues(today: date) -> dict[str, tuple]:
    """(kind, URL arguments, listing parameters) of the taxes and salaries unpaid this month."""
    args = {"from": today.strftime("%Y-%m"), "to": today.strftime("%Y-%m"), "paid": "no"}
    return {kind.name: (kind, args, tax_params(tax_filter(args)))
            for kind in (tax_present.TAXES, tax_present.SALARIES)}


def _total(api, figure: Figure, params: dict | None, codes: dict) -> Totals:
    return list_totals(api, figure.kind, params, codes)


def _due(api, kind, params: dict | None) -> Decimal | None:
    if params is None:
        return None
    listing = _or_none(tax_flow.listing, api, kind, params)
    return tax_present.total(tax_present.months(listing, kind)) if listing is not None else None


def amount_tasks(api, found: dict[str, Figure], due: dict[str, tuple], codes: dict) -> dict:
    """The reads behind every figure's Totals and the taxes / salaries due (parameters read
    here, in the request: the list's reader needs its context)."""
    params = {key: figure.query.params() for key, figure in found.items()}
    # A figure the session may not read (a /1/ list under OAuth) shows as not available.
    tasks = {key: partial(_or_none, _by_month if key in CHART_RANGES else _total, api, figure,
                          params[key], codes) for key, figure in found.items()}
    tasks.update({key: partial(_due, api, kind, listing) for key, (kind, _args, listing)
                  in due.items()})
    return tasks


def period_type(api) -> str | None:
    """The company's VAT period type (monthly, quarterly, yearly) when it says."""
    return (company_settings(api) or {}).get("vat_period_type")


# -- the practice page: one row per signed-in company ---------------------------------------------

PAGE_SIZE = 100
UNPROCESSED = "unprocessed"
NEEDS_TOKEN = "needs_api_token"  # noqa: S105 (a reason code)
FAILED = "failed"


@dataclass
class PracticeRow:
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


def practice_queries(today: date) -> dict[str, ListQuery]:
    """The income lists behind a row: the review queue, overdue incomes, this month's incomes
    by fulfilment date (the dashboard's cards for the first two)."""
    start, end = month_bounds(today)
    card = cards(today)
    return {"review": card["needs_review"], "overdue": card["overdue"],
            "vat_incomes": income_query({"date_field": "fulfilled_at", "date_from": start,
                                         "date_to": end})}


def practice_rows(companies: list[dict], clients: dict[int, object], params: dict[str, dict],
         today: date) -> list[PracticeRow]:
    """A row per company ({id, name}), each read with its own client, all side by side."""
    tasks: dict[str, Callable[[], PracticeRow]] = {
        str(item["id"]): _task(item, clients[item["id"]], params, today) for item in companies}
    found = run_parallel(tasks)
    return [found[str(item["id"])] for item in companies]


def _task(item: dict, client, params: dict[str, dict], today: date) -> Callable[[], PracticeRow]:
    return lambda: company_row(PracticeRow(item["id"], item["name"]), client, params, today)


def company_row(row: PracticeRow, client, params: dict[str, dict], today: date) -> PracticeRow:
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
