"""What the VAT area works out, without request objects: VAT periods (a month, a quarter or a
year), the VAT summary of a period (net and VAT by VAT category for incomes and for expenses,
and the VAT payable or reclaimable), the documents behind each cell, and the month-end checklist.

Which documents a period holds: those whose fulfilment day falls in it (the day the Hungarian
VAT act dates a supply by). Each assignment's amounts go to the cell of its VAT category,
converted to the company currency with the document's exchange rate (1 when it has none), to
the fillér: a document's parts add up to its net and VAT converted whole, as the list footers
count them, so the summary and the lists agree to the fillér. A document with no assignments
counts with its own net and VAT under "no VAT category". Expenses excluded from accounting are
left out, and so are incomes cancelled without a storno (void documents); a document a storno
reverses stays, and the storno's negative amounts net it out.
"""
from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import partial
from typing import Any

from app.forms.display import company_settings
from app.numbers import at_rate_parts, to_decimal
from app.review.forms import queue_query
from app.upstream import catalog, run_parallel
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api
from app.upstream import taxes as taxes_api
from app.upstream.parallel import once

MONTHLY, QUARTERLY, YEARLY = "monthly", "quarterly", "yearly"
KINDS = (MONTHLY, QUARTERLY, YEARLY)
MONTHS = {MONTHLY: 1, QUARTERLY: 3, YEARLY: 12}
# The years a period may have: one year short of date()'s ends, so a period's neighbours exist.
FIRST_YEAR, LAST_YEAR = 1, 9998
INCOMES, EXPENSES = "incomes", "expenses"
NO_CATEGORY = "none"


@dataclass(frozen=True)
class Period:
    """A VAT period: its kind and its first and last day."""

    kind: str
    start: date
    end: date

    @property
    def key(self) -> str:
        """The period as the URL names it: 2026-03, 2026-Q1 or 2026."""
        if self.kind == MONTHLY:
            return self.start.isoformat()[:7]
        if self.kind == QUARTERLY:
            return f"{self.start.year:04d}-Q{(self.start.month - 1) // 3 + 1}"
        return f"{self.start.year:04d}"

    def shifted(self, steps: int) -> Period | None:
        """The period `steps` periods later (earlier when negative), of the same kind; None
        when it would fall outside FIRST_YEAR..LAST_YEAR."""
        index = self.start.year * 12 + self.start.month - 1 + MONTHS[self.kind] * steps
        if not FIRST_YEAR <= index // 12 <= LAST_YEAR:
            return None
        return period_of(self.kind, date(index // 12, index % 12 + 1, 1))


def period_of(kind: str, day: date) -> Period:
    """The period of this kind that holds the day."""
    if kind == YEARLY:
        return Period(kind, date(day.year, 1, 1), date(day.year, 12, 31))
    first = day.month if kind == MONTHLY else (day.month - 1) // 3 * 3 + 1
    last = first if kind == MONTHLY else first + 2
    return Period(kind, date(day.year, first, 1),
                  date(day.year, last, calendar.monthrange(day.year, last)[1]))


def kind_of(value) -> str:
    """A VAT period kind as the company settings name it; monthly when unset or unknown."""
    return value if value in KINDS else MONTHLY


def company_kind(client) -> str:
    """The company's VAT period kind (vat_period_type of its settings); monthly when unset."""
    return kind_of((company_settings(client) or {}).get("vat_period_type"))


@dataclass
class Cell:
    """One side's sums for one VAT category, and the documents that make them up."""

    side: str
    vat_id: str
    net: Decimal = Decimal(0)
    vat: Decimal = Decimal(0)
    documents: dict = field(default_factory=dict)

    @property
    def gross(self) -> Decimal:
        """Net plus VAT."""
        return self.net + self.vat


def vat_id(value) -> str:
    """An assignment's VAT category id as text (lists send an id or an object); "none"."""
    if isinstance(value, dict):
        value = value.get("id")
    return NO_CATEGORY if value in (None, "") else str(value)


def document_parts(record: dict) -> list[tuple[str, Decimal, Decimal]]:
    """(VAT category id, net, VAT) of each assignment in the company currency, adding up to
    the document's own net and VAT converted."""
    rate = to_decimal(record.get("exchange_rate")) or Decimal(1)
    rows = record.get("assignments") or [{"vat": None, "net_amount": record.get("net_amount"),
                                          "vat_amount": record.get("vat_amount")}]
    nets, vats = ([to_decimal(row.get(name)) or Decimal(0) for row in rows]
                  for name in ("net_amount", "vat_amount"))
    return list(zip([vat_id(row.get("vat")) for row in rows], at_rate_parts(nets, rate),
                    at_rate_parts(vats, rate), strict=True))


def summarise(side: str, records, cells: dict | None = None) -> dict[tuple[str, str], Cell]:
    """The records added into cells keyed (side, VAT category id); each cell keeps, per
    document, the net and VAT it added."""
    cells = {} if cells is None else cells
    for record in records:
        if side == EXPENSES and record.get("excluded_from_accounting"):
            continue
        for key, net, vat in document_parts(record):
            cell = cells.setdefault((side, key), Cell(side, key))
            cell.net += net
            cell.vat += vat
            part = cell.documents.setdefault(record.get("id"), [record, Decimal(0), Decimal(0)])
            part[1] += net
            part[2] += vat
    return cells


@dataclass(frozen=True)
class Summary:
    """A period's VAT summary: cells by side and category, the category catalogue, currency."""

    period: Period
    cells: dict
    categories: dict
    currency: str | None

    def side(self, side: str) -> list[Cell]:
        """The side's cells, in VAT category order (by percent, then name)."""
        found = [cell for (name, _key), cell in self.cells.items() if name == side]
        return sorted(found, key=lambda cell: self._order(cell.vat_id))

    def _order(self, key: str):
        entry = self.categories.get(key) or {}
        return (key == NO_CATEGORY, -(to_decimal(entry.get("percent")) or 0),
                str(entry.get("name") or ""))

    def total(self, side: str) -> Cell:
        """The side's sums over every category."""
        total = Cell(side, "")
        for cell in self.side(side):
            total.net, total.vat = total.net + cell.net, total.vat + cell.vat
        return total

    @property
    def balance(self) -> Decimal:
        """Output VAT less input VAT: payable when positive, reclaimable when negative."""
        return self.total(INCOMES).vat - self.total(EXPENSES).vat


SUMMARY_READS = (INCOMES, EXPENSES, "categories", "settings")


def period_reads(client, today: date) -> tuple[Callable[[], Any], Callable[[], Period]]:
    """(the company's settings, its VAT period holding today), each read once when first
    called: tasks of one round share the one settings read."""
    settings = once(partial(company_settings, client))
    return settings, once(lambda: period_of(kind_of((settings() or {}).get("vat_period_type")),
                                            today))


def summary_reads(client, period: Callable[[], Period],
                  settings: Callable[[], Any] | None = None) -> dict[str, Callable[[], Any]]:
    """The summary's reads (SUMMARY_READS) as tasks for a parallel round; `period` is called
    inside the tasks, so a caller may read the company's period in the same round, and
    `settings` may be that round's one read of the company settings."""
    return {
        INCOMES: lambda: counted_incomes(client, period()),
        EXPENSES: lambda: list(expense_api.fulfilled_between(client, period().start,
                                                             period().end)),
        "categories": partial(catalog.get, client, "vat_categories"),
        "settings": settings or partial(company_settings, client)}


def counted_incomes(client, period: Period) -> list[dict]:
    """The period's incomes that carry VAT. A cancelled one counts only when a storno names
    it, since the storno's own negative amounts net it out in the storno's period; one
    cancelled without a storno is void and carries none."""
    records = list(income_api.fulfilled_between(client, period.start, period.end))
    return income_api.without_void(client, records)


def summary_of(period: Period, found: dict) -> Summary:
    """The period's summary from what summary_reads read."""
    cells = summarise(INCOMES, found[INCOMES])
    summarise(EXPENSES, found[EXPENSES], cells)
    categories = {str(item.get("id")): item for item in found["categories"] or []}
    return Summary(period, cells, categories,
                   (found["settings"] or {}).get("default_currency_name"))


def summary(client, period: Period) -> Summary:
    """Read the period's incomes and expenses side by side and add them up."""
    return summary_of(period, run_parallel(summary_reads(client, lambda: period)))


CHECKS = ("review", "unprocessed", "no_vat_period", "taxes", "salaries")


def review_args(month: Period) -> dict:
    """The review queue's URL arguments at a month's close: the incomes fulfilled by its end
    (a later one does not hold the month up)."""
    return {"date_field": "fulfilled_at", "date_to": month.end.isoformat()}


def month_end(client, month: Period) -> dict:
    """The month-end checklist's reads, side by side: the review queue's size by the month's
    end, the expenses not processed yet (fulfilled by its end, or not dated yet), the month's
    expenses without a VAT period (None, and not read, when the company keeps no VAT periods:
    the settings come from cache first), the month's taxes and salaries (their records), and
    the currency codes the expense rows are shown in."""
    params = queue_query(review_args(month)).params() or {}
    listing = {"from_date": month.start.isoformat(), "to_date": month.end.isoformat()}
    reads = {
        "review": partial(income_api.count, client, params),
        "unprocessed": partial(_unprocessed_by, client, month.end),
        "codes": partial(catalog.names, client, "currencies", "code"),
        "taxes": partial(taxes_api.monthly_records, client, "taxes", listing),
        "salaries": partial(taxes_api.monthly_records, client, "salaries", listing)}
    if company_settings(client).get("enable_vat_period"):
        reads["no_vat_period"] = partial(_without_vat_period, client, month)
    return {"no_vat_period": None, **run_parallel(reads)}


def _unprocessed_by(client, end: date) -> list[dict]:
    # An upload not processed yet often has no fulfilment day: it is still to do this month.
    return [expense for expense in expense_api.unprocessed(client)
            if not expense.get("fulfilled_at") or expense["fulfilled_at"][:10] <= end.isoformat()]


def _without_vat_period(client, month: Period) -> list[dict]:
    # One excluded from accounting needs no VAT period, as the VAT summary leaves it out.
    return [expense for expense in expense_api.fulfilled_between(
                client, month.start, month.end, has_vat_period=False)
            if not expense.get("excluded_from_accounting")]
