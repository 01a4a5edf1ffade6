"""What the dashboard shows of its amounts: each figure's value in HUF (or why there is none)
and link, the VAT due of the period, and the 12-month chart's bars as server-drawn SVG
geometry with the same numbers for its table."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.numbers import format_amount
from app.totals import HOME, Totals
from app.vat.service import EXPENSES, INCOMES

# The month labels are HTML under the chart: SVG text would stretch with its width.
CHART_WIDTH, CHART_HEIGHT, CHART_TOP, CHART_BOTTOM = 720, 214, 12, 2
BAR_GAP = 4


@dataclass
class Shown:
    """A figure as shown: its value (None: not summed), text, the list's URL and why not."""

    value: Decimal | None
    text: str
    url: str
    problem: str = ""  # "too_many", "no_rate" or "unavailable"


def shown(totals: Totals | None, amount: str, url: str) -> Shown:
    """A figure's value in HUF over the whole list it links to, or the reason it has none."""
    if totals is None:
        return Shown(None, "—", url, "unavailable")
    if not totals.whole:
        return Shown(None, "—", url, "too_many")
    value = totals.huf(amount) if totals.currencies else Decimal(0)
    if value is None:
        return Shown(None, "—", url, "no_rate")
    return Shown(value, format_amount(value, HOME), url)


def vat_shown(summary, url: str) -> dict[str, Shown]:
    """The VAT on incomes and on expenses and the VAT due of the VAT summary (its page's own
    figures, in the company currency), each linking to that page; unknown without it."""
    if summary is None:
        return dict.fromkeys(("vat_out", "vat_in", "vat_due"), Shown(None, "—", url,
                                                                    "unavailable"))
    values = {"vat_out": summary.total(INCOMES).vat, "vat_in": summary.total(EXPENSES).vat,
              "vat_due": summary.balance}
    return {key: Shown(value, format_amount(value, HOME), url) for key, value in values.items()}


@dataclass
class Bar:
    """One bar of the chart: its month, value, link and rectangle."""

    label: str
    shown: Shown
    x: Decimal
    y: Decimal
    height: Decimal


def bars(months: list[tuple[str, Shown, Shown]]) -> tuple[list[tuple[Bar, Bar]], Decimal]:
    """(revenue bar, expense bar) per month, scaled to the largest value; and that value."""
    largest = max((s.value for _label, *pair in months for s in pair
                   if s.value is not None and s.value > 0), default=Decimal(1))
    slot = Decimal(CHART_WIDTH) / max(len(months), 1)
    width = (slot - 3 * BAR_GAP) / 2
    found = []
    for index, (label, revenue, expense) in enumerate(months):
        left = slot * index + BAR_GAP
        found.append((_bar(label, revenue, left, largest),
                      _bar(label, expense, left + width + BAR_GAP, largest)))
    return found, largest


def bar_width(count: int) -> Decimal:
    """The width of one bar when count months share the chart."""
    return (Decimal(CHART_WIDTH) / max(count, 1) - 3 * BAR_GAP) / 2


def _bar(label: str, value: Shown, x: Decimal, largest: Decimal) -> Bar:
    drawable = Decimal(CHART_HEIGHT - CHART_TOP - CHART_BOTTOM)
    amount = value.value if value.value is not None and value.value > 0 else Decimal(0)
    height = (amount / largest * drawable).quantize(Decimal("0.1"))
    return Bar(label, value, x.quantize(Decimal("0.1")),
               Decimal(CHART_HEIGHT - CHART_BOTTOM) - height, height)
