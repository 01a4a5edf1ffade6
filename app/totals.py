"""What a filtered list adds up to: count, net, VAT and gross per currency, with HUF equivalents
where every row of a currency carries its exchange rate (the list footers and the dashboard).

A total covers the WHOLE filter, never only the page on the screen: the filter's pages are read
side by side (page-numbered reads, ordered by id so no row is read twice or missed). A filter
that finds more than ROW_LIMIT rows is not read through: its footer sums the shown page and
says so (Totals.whole is False), so a partial sum is never shown as a whole one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from app.numbers import at_rate, to_decimal
from app.upstream import expenses as expense_api
from app.upstream import incomes as income_api
from app.upstream.errors import FilterIgnored, upstream_messages
from app.upstream.parallel import read_every

HOME = "HUF"
ROW_LIMIT = 5000
READ_PAGE_SIZE = 200
AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
ZERO = Decimal(0)
Amounts = Callable[[dict], dict]


@dataclass
class CurrencyTotal:
    """One currency's count and sums; huf holds the HUF equivalents while every rate is known."""

    code: str
    count: int = 0
    sums: dict[str, Decimal] = field(default_factory=lambda: dict.fromkeys(AMOUNTS, ZERO))
    huf: dict[str, Decimal] | None = field(default_factory=lambda: dict.fromkeys(AMOUNTS, ZERO))

    def add(self, amounts: dict, rate: Decimal | None) -> None:
        """Count one row and add its amounts (and their HUF value at its rate)."""
        self.count += 1
        values = {name: to_decimal(amounts.get(name)) or ZERO for name in AMOUNTS}
        for name in AMOUNTS:
            self.sums[name] += values[name]
        if rate is None:
            self.huf = None
        elif self.huf is not None:
            for name, value in in_home(values, rate).items():
                self.huf[name] += value


def in_home(values: dict[str, Decimal], rate: Decimal) -> dict[str, Decimal]:
    """A document's net, VAT and gross at its rate. Net and VAT are each converted; gross is
    their sum when the document's own gross is, so its forint figures add up as its own do
    (converting gross alone may land a fillér away)."""
    net, vat, gross = (at_rate(values[name], rate) for name in AMOUNTS)
    if values["net_amount"] + values["vat_amount"] == values["gross_amount"]:
        gross = net + vat
    return dict(zip(AMOUNTS, (net, vat, gross), strict=True))


@dataclass
class Totals:
    """A list's totals by currency; whole is False when only the shown page was summed."""

    currencies: list[CurrencyTotal]
    whole: bool = True
    limit: int = ROW_LIMIT

    @property
    def count(self) -> int:
        """Rows summed."""
        return sum(total.count for total in self.currencies)

    def huf(self, name: str) -> Decimal | None:
        """The HUF equivalent of one amount over every currency; None when a rate is missing."""
        values = [total.huf[name] if total.huf else None for total in self.currencies]
        return None if None in values else sum(values, ZERO)


def income_amounts(income: dict) -> dict:
    """An income's net, VAT and gross as the list shows them (its top-level amounts)."""
    return {name: income.get(name) for name in AMOUNTS}


def expense_amounts(expense: dict) -> dict[str, Decimal]:
    """An expense's net, VAT and gross summed over its assignments (the top-level amounts
    may be 0), as its list row and detail show them."""
    rows = expense.get("assignments") or []
    if not rows:
        return {name: to_decimal(expense.get(name)) or ZERO for name in AMOUNTS}
    return {name: sum((to_decimal(row.get(name)) or ZERO for row in rows), ZERO)
            for name in AMOUNTS}


def _rate(record: dict, code: str) -> Decimal | None:
    if code == HOME:
        return Decimal(1)
    rate = to_decimal(record.get("exchange_rate"))
    return rate if rate and rate > 0 else None


def add_up(records: Iterable[dict], codes: dict, amounts: Amounts, whole: bool = True) -> Totals:
    """Totals of these records by currency code (codes: currency id -> code)."""
    found: dict[str, CurrencyTotal] = {}
    for record in records:
        code = codes.get(record.get("currency")) or str(record.get("currency") or "?")
        found.setdefault(code, CurrencyTotal(code)).add(amounts(record), _rate(record, code))
    ordered = sorted(found.values(), key=lambda total: (total.code != HOME, total.code))
    return Totals(ordered, whole=whole, limit=ROW_LIMIT)


def in_forints(record: dict, code: str | None, amounts: Amounts) -> Decimal | None:
    """A foreign document's gross in forints, as the list footers count it; None for a forint
    document or one without a rate."""
    if not code or code == HOME:
        return None
    return rate_and_forints(record, code, amounts)[1]


def rate_and_forints(record: dict, code: str | None,
                     amounts: Amounts) -> tuple[Decimal | None, Decimal | None]:
    """(the rate a list footer counts a document at, its gross in forints so counted): 1 and
    its own gross for a forint document, (None, None) without a usable rate. The exports'
    last columns, so a file's forints add up to the footer's."""
    rate = _rate(record, code or "")
    total = CurrencyTotal(code or "")
    total.add(amounts(record), rate)
    return (rate.normalize(), total.huf["gross_amount"]) if total.huf else (None, None)


def read_all(client, list_page, params: dict) -> list[dict] | None:
    """Every record of the filter, its pages read side by side; None past ROW_LIMIT rows."""
    return read_every(client, list_page, params, ROW_LIMIT, READ_PAGE_SIZE)


def read_filter(client, kind: str, params: dict, list_page: Callable | None = None):
    """Every record of an income or expense filter, Bookdesk's not-void filter applied (it
    is never sent); None past ROW_LIMIT rows. list_page: the page reader, when not the kind's."""
    sent, not_void = income_api.not_void_params(params)
    records = read_all(client, list_page or READERS[kind][0], sent)
    if not_void and records is not None:
        return income_api.without_void(client, records)
    return records


def trusted(compute: Callable[[], Totals], problems: list) -> Totals | None:
    """compute(), or None with the reason added to problems when a page it read held rows
    outside the filter (the service passed the filter over: the sum would be wrong)."""
    try:
        return compute()
    except FilterIgnored as exc:
        problems.extend(upstream_messages(exc))
        return None


def list_totals(client, kind: str, params: dict | None, codes: dict,
                shown: list[dict] | None = None, complete: bool = False) -> Totals:
    """The totals of an income or expense filter (kind "incomes" or "expenses"); the shown
    page's totals, marked as such, when the filter is too large to read through.

    complete: the shown page is the whole filter (first page, no next), so nothing is read."""
    amounts = READERS[kind][1]
    if complete or params is None:
        return add_up(shown or [], codes, amounts)
    records = read_filter(client, kind, params)
    if records is None:
        return add_up(shown or [], codes, amounts, whole=False)
    return add_up(records, codes, amounts)


READERS = {"incomes": (income_api.list_page, income_amounts),
           "expenses": (expense_api.list_page, expense_amounts)}
