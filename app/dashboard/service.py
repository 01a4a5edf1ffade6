"""The dashboard area's reads (no request objects here: the views pass clients and queries in).

The company dashboard: the list behind each count card and each amount, the counts, the
amounts (app/totals.py, over the whole list a figure links to), taxes and salaries of the
month, the 12-month chart, the latest incomes and their cancellation words, read side by side
in one round. Periods and months are app/vat/service.py's (Period, period_of).
Every amount is built from a ListQuery, the same object that makes its link: the figure sums
the very rows the linked list shows (its totals footer says the same number).

The practice page: one row per signed-in company, every figure of every row read side by side.
A row holds what a bookkeeping office looks at first for each company: the review queue's size,
the overdue amount (incomes not fully paid past their due date, per currency), the VAT due
(the balance of the VAT summary, app/vat/service.py, for the company's current VAT period) and
the expenses not yet processed. The review queue and the overdue incomes are the dashboard's
cards' own queries (`cards`), so the practice page and each
company's dashboard agree. A company signed in through OAuth2 has its figures read from /2/
only: the API takes a Bearer token on /2/ paths only, so the incomes' figures say that they
need an API token.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import partial
from typing import Any

from app.expenses.forms import list_query as expense_query
from app.forms.filters import ListQuery
from app.incomes.flow import reversed_numbers
from app.incomes.forms import NOT_VOID_CHOICE
from app.incomes.forms import list_query as income_query
from app.incomes.present import cancel_label, cancel_state
from app.numbers import to_decimal
from app.review.forms import queue_query
from app.taxes import flow as tax_flow
from app.taxes import present as tax_present
from app.taxes.forms import api_params as tax_params
from app.taxes.forms import filter_form as tax_filter
from app.totals import READERS, Totals, add_up, list_totals, read_filter
from app.upstream import NeedsApiToken, NotFound, UpstreamError, catalog, run_parallel
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api
from app.upstream.parallel import once
from app.vat.service import (
    EXPENSES,
    INCOMES,
    MONTHLY,
    SUMMARY_READS,
    Period,
    period_of,
    period_reads,
    summary_of,
    summary_reads,
)

RECENT_SIZE = 10
INCOME_CARDS = ("needs_review", "unpaid", "overdue")


def _unpaid_expenses() -> ListQuery:
    """The unpaid expenses: one list behind the count card and the open payables figure."""
    return expense_query({"is_paid": "false"})


def cards() -> dict[str, ListQuery]:
    """The list behind each count card: the card counts its rows and links to it (the unpaid
    expenses card takes its count from the open payables figure, the same list)."""
    return {
        "needs_review": queue_query({}),
        # Unpaid and partly paid, live: the receivables figure's list, which holds every
        # overdue one too (a count of unpaid only read lower than the overdue card's).
        "unpaid": _open_incomes(),
        "overdue": _incomes({"tab": "overdue"}),  # the Overdue tab, as the overdue amount
        "unpaid_expenses": _unpaid_expenses(),
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
    return _or_none(income_api.count, api, params)


def _recent(api) -> list | None:
    page = _or_none(income_api.list_page, api,
                    {"page_size": RECENT_SIZE, "ordering": "-issued_at"})
    return page.items if page else None


def dashboard_data(api, queries: dict[str, ListQuery], amounts: dict[str, Figure],
                   today: date, due: dict[str, tuple]) -> dict:
    """Every upstream read of the dashboard in one parallel round: the cards, the amounts, the
    VAT summary of the company's current VAT period, the period kind ("period_kind") and
    currencies, each read once; a read needing one of those waits for it inside the round.
    Parameters are read here, in the request (the list's reader needs its context)."""
    codes = once(lambda: _or_none(catalog.names, api, "currencies", "code") or {})
    settings, period = period_reads(api, today)
    params = {key: query.params() for key, query in queries.items()}
    return run_parallel({
        **amount_tasks(api, amounts, due, codes),
        **vat_tasks(api, period, settings),
        **{key: partial(_income_count, api, params[key]) for key in INCOME_CARDS},
        "recent": lambda: _recent(api),
        "currencies": codes,
        "period_kind": lambda: period().kind,
    })


def unpaid_expense_count(data: dict) -> dict | None:
    """The unpaid expenses card: the rows the open payables figure summed, which is the same
    list (/2/expenses has no count of its own); "+" past the rows a list sums."""
    totals = data["payables"]
    return None if totals is None else {"count": totals.count, "more": not totals.whole}


def cancel_labels(api, incomes: list[dict]) -> dict[int, str]:
    """Income id -> "Reversed" or "Cancelled" for the cancelled ones among incomes."""
    numbers = reversed_numbers(api, incomes)
    return {income["id"]: cancel_label(cancel_state(income, numbers)) for income in incomes
            if income.get("is_cancelled")}


CHART_MONTHS = 12
CHART_RANGES = ("chart_in", "chart_out")


@dataclass(frozen=True)
class Figure:
    """An amount on the dashboard: the list it sums (kind, query) and which amount it takes."""

    kind: str  # "incomes" or "expenses"
    query: ListQuery
    amount: str  # net_amount, vat_amount or gross_amount


def chart_months(today: date) -> list[Period]:
    """The chart's months, oldest first, the last one today's."""
    month = period_of(MONTHLY, today)
    return [month.shifted(-back) for back in range(CHART_MONTHS - 1, -1, -1)]


def _incomes(args: dict) -> ListQuery:
    return income_query({"cancelled": "no", **args})


def _open_incomes() -> ListQuery:
    """Unpaid and partly paid, neither cancelled nor a storno: a live storno stays unpaid at
    its negative gross while the document it reverses is cancelled, so counting it would take
    the reversed amount off the receivables a second time."""
    return _incomes({"paid_status": "open", "storno": "no"})


def _income_range(field: str, first: date, last: date) -> ListQuery:
    # Revenue leaves out void documents only: a document a storno reverses counts in its
    # month and the storno's negative amounts in the storno's, as the VAT summary counts them.
    return income_query({"cancelled": NOT_VOID_CHOICE, "date_field": field,
                         "date_from": first.isoformat(), "date_to": last.isoformat()})


def _expense_range(field: str, first: date, last: date) -> ListQuery:
    return expense_query({"date_field": field, "created_from": first.isoformat(),
                          "created_to": last.isoformat()})


def figures(today: date) -> dict[str, Figure]:
    """Every amount of the dashboard but the VAT (the VAT summary's), and the list it sums."""
    year, month = today.replace(month=1, day=1), period_of(MONTHLY, today).start
    return {
        "revenue_month": Figure("incomes", _income_range("issued_at", month, today), "net_amount"),
        "revenue_year": Figure("incomes", _income_range("issued_at", year, today), "net_amount"),
        "expense_month": Figure("expenses", _expense_range("issued_at", month, today),
                                "net_amount"),
        "expense_year": Figure("expenses", _expense_range("issued_at", year, today),
                               "net_amount"),
        "receivables": Figure("incomes", _open_incomes(), "gross_amount"),
        "receivables_overdue": Figure("incomes", _incomes({"tab": "overdue"}), "gross_amount"),
        "payables": Figure("expenses", _unpaid_expenses(), "gross_amount"),
        "payables_overdue": Figure("expenses", expense_query({"tab": "overdue"}),
                                   "gross_amount"),
    }


def chart_figures(today: date) -> dict[str, Figure]:
    """Revenue and expense (net) of each of the last 12 months, by issue date (the links)."""
    found = {}
    for month in chart_months(today):
        found[f"chart_in_{month.key}"] = Figure(
            "incomes", _income_range("issued_at", month.start, month.end), "net_amount")
        found[f"chart_out_{month.key}"] = Figure(
            "expenses", _expense_range("issued_at", month.start, month.end), "net_amount")
    return found


def chart_ranges(today: date) -> dict[str, Figure]:
    """The two 12-month lists the chart reads once each and splits by issue month."""
    months = chart_months(today)
    first, last = months[0].start, months[-1].end
    return {"chart_in": Figure("incomes", _income_range("issued_at", first, last), "net_amount"),
            "chart_out": Figure("expenses", _expense_range("issued_at", first, last),
                                "net_amount")}


def _by_month(api, figure: Figure, params: dict | None,
              codes: Callable[[], dict]) -> dict[str, Totals]:
    """The range's Totals per issue month (YYYY-MM): each equals that month's own list, whose
    filter differs only in the dates; every month marked partial past ROW_LIMIT rows."""
    amounts = READERS[figure.kind][1]
    records = read_filter(api, figure.kind, params) if params is not None else []
    if records is None:
        return {"": Totals([], whole=False)}
    months: dict[str, list] = {}
    for record in records:
        months.setdefault(str(record.get("issued_at") or "")[:7], []).append(record)
    return {month: add_up(rows, codes(), amounts) for month, rows in months.items()}


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


def _total(api, figure: Figure, params: dict | None, codes: Callable[[], dict]) -> Totals:
    return list_totals(api, figure.kind, params, codes())


def _due(api, kind, params: dict | None) -> Decimal | None:
    if params is None:
        return None
    listing = _or_none(tax_flow.listing, api, kind, params)
    return tax_present.total(tax_present.months(listing, kind)) if listing is not None else None


def amount_tasks(api, found: dict[str, Figure], due: dict[str, tuple],
                 codes: Callable[[], dict]) -> dict:
    """The reads behind every figure's Totals and the taxes / salaries due (parameters read
    here, in the request: the list's reader needs its context)."""
    params = {key: figure.query.params() for key, figure in found.items()}
    # A figure the session may not read (a /1/ list under OAuth) shows as not available.
    tasks = {key: partial(_or_none, _by_month if key in CHART_RANGES else _total, api, figure,
                          params[key], codes) for key, figure in found.items()}
    tasks.update({key: partial(_due, api, kind, listing) for key, (kind, _args, listing)
                  in due.items()})
    return tasks


def vat_tasks(api, period: Callable[[], Period], settings: Callable[[], Any]) -> dict:
    """The VAT summary's reads (app/vat/service.py) as "vat:<read>" tasks: the dashboard's VAT
    is the VAT page's own figure for the same period, never a second calculation."""
    return {f"vat:{name}": partial(_or_none, read)
            for name, read in summary_reads(api, period, settings).items()}


def vat_summary(data: dict, period: Period):
    """The period's VAT summary from the round's reads; None when one of them is missing."""
    parts = {name: data[f"vat:{name}"] for name in SUMMARY_READS}
    if parts[INCOMES] is None or parts[EXPENSES] is None:
        return None
    return summary_of(period, parts)


# -- the practice page: one row per signed-in company ---------------------------------------------

PAGE_SIZE = 100
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


FIGURES = ("review", "overdue", "vat_due", "unprocessed")


def practice_queries() -> dict[str, ListQuery]:
    """The income lists behind a row: the review queue and the overdue incomes (the
    dashboard's cards)."""
    card = cards()
    return {"review": card["needs_review"], "overdue": card["overdue"]}


def practice_rows(companies: list[dict], clients: dict[int, object], params: dict[str, dict],
                  today: date) -> list[PracticeRow]:
    """A row per company ({id, name}), each read with its own client: every read of every
    row is a task of one parallel round (a task's own rounds would run inline), the VAT
    summary's reads too, each waiting for the company's VAT period read in the round."""
    tasks, periods = {}, {}
    for item in companies:
        client = clients[item["id"]]
        settings, periods[item["id"]] = period_reads(client, today)
        tasks.update(_figure_tasks(item["id"], client, params, periods[item["id"]], settings))
    found = run_parallel(tasks)
    return [_row(item, found, periods[item["id"]]) for item in companies]


def _figure_tasks(company_id: int, client, params: dict[str, dict], period, settings) -> dict:
    reads = {"review": partial(income_count, client, params["review"]),
             "overdue": partial(overdue_amounts, client, params["overdue"]),
             "unprocessed": partial(unprocessed_expenses, client),
             **{f"vat_due:{name}": read
                for name, read in summary_reads(client, period, settings).items()}}
    return {f"{company_id}:{name}": partial(_figure, client, name, read)
            for name, read in reads.items()}


def _row(item: dict, found: dict, period: Callable[[], Period]) -> PracticeRow:
    row = PracticeRow(item["id"], item["name"])
    for name in FIGURES:
        value, reason = (vat_due(found, f"{item['id']}:vat_due", period) if name == "vat_due"
                         else found[f"{item['id']}:{name}"])
        setattr(row, name, value)
        if reason:
            row.missing[name] = reason
    return row


def vat_due(found: dict, prefix: str, period: Callable[[], Period]) -> tuple:
    """(balance, None) of the VAT summary (app/vat/service.py) for the company's current VAT
    period, the figure its VAT page shows; (None, why) when one of its reads failed."""
    parts = {name: found[f"{prefix}:{name}"] for name in SUMMARY_READS}
    reasons = [reason for _value, reason in parts.values() if reason]
    if reasons:
        return None, reasons[0]
    return summary_of(period(), {name: value for name, (value, _r) in parts.items()}).balance, None


def _figure(client, name: str, read: Callable[[], Any]) -> tuple[Any, str | None]:
    """(value, None), or (None, why): the sign-in cannot reach the incomes, or the upstream
    refused."""
    if name != "unprocessed" and not client.reaches(income_api.LIST):
        return None, NEEDS_TOKEN
    try:
        return read(), None
    except UpstreamError:
        return None, FAILED


def income_count(client, params: dict) -> int:
    """How many incomes the list with these parameters holds."""
    return income_api.count(client, params)


def overdue_amounts(client, params: dict) -> dict[str, Decimal]:
    """Gross total of the overdue list's incomes per currency code."""
    codes = catalog.names(client, "currencies", "code")
    totals: dict[str, Decimal] = {}
    for income in income_api.iter_all(client, {**params, "page": 1, "page_size": PAGE_SIZE}):
        code = codes.get(income.get("currency"), str(income.get("currency") or ""))
        totals[code] = totals.get(code, Decimal(0)) + (to_decimal(income.get("gross_amount"))
                                                      or Decimal(0))
    return totals


def unprocessed_expenses(client) -> int:
    """How many expenses are still to process: the month-end checklist's list, counted."""
    return len(expense_api.unprocessed(client, PAGE_SIZE))
