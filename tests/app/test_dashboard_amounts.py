"""Every amount on the dashboard equals the sum over the list it links to: follow the link, read
that list's totals footer. Also the VAT due (VAT on incomes minus VAT on expenses of the VAT
period), taxes and salaries due, and the chart's accessible SVG with its table alternative.
"""
from __future__ import annotations

import html
import re
from datetime import timedelta
from decimal import Decimal

import pytest

from app.numbers import company_today
from tests.app.conftest import sign_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense, row
from tests.app.incomes_helpers import make_income
from tests.app.totals_support import footer

FIGURE = re.compile(r'<a [^>]*?href="([^"]+)"[^>]*?data-figure="([^"]+)"'
                    r'(?: data-value="([^"]+)")?')
BAR = re.compile(r'<a href="([^"]+)"><rect class="chart__bar chart__bar--(revenue|expense)" '
                 r'x="[^"]*" y="[^"]*" width="[^"]*" height="([^"]*)"><title>([^<]*)</title>')
CHART_CELL = re.compile(r'<a href="([^"]+)" data-figure="chart-(revenue|expense)-(\d+)"'
                        r'(?: data-value="([^"]+)")?>([^<]*)</a>')
PLOT_HEIGHT = Decimal(200)  # the SVG's 240 less its top and bottom margins (12 and 28)
AMOUNT_OF = {"revenue": "net", "expense": "net", "chart-revenue": "net", "chart-expense": "net",
             "receivables": "gross", "payables": "gross", "vat": "vat"}


def _day(offset: int) -> str:
    return (company_today() + timedelta(days=offset)).isoformat()


@pytest.fixture
def dashboard(client, company, api) -> str:
    """A company with incomes and expenses this month, earlier this year and last year, paid
    and not, some overdue, one income in EUR; signed in; the dashboard's HTML."""
    eur = next(c["id"] for c in api.get("/2/currencies/").json() if c["code"] == "EUR")
    for n, offset in enumerate((0, -1, -20, -45, -100, -200, -400)):
        make_income(api, invoice_number=f"D-{n}", issued_at=_day(offset),
                    fulfilled_at=_day(offset), due_at=_day(offset + 8),
                    net_amount=f"{1000 * (n + 1)}.00", gross_amount=f"{1270 * (n + 1)}.00",
                    payments=[{"amount": f"{1270 * (n + 1)}.00"}] if n % 2 else [])
    make_income(api, invoice_number="EUR-1", currency=eur, exchange_rate="400.00",
                net_amount="100.00", gross_amount="127.00", due_at=_day(-3))
    ids = expense_catalogue(api)
    for n, offset in enumerate((0, -15, -70, -300)):
        make_expense(api, ids, invoice_number=f"S-{n}", paid_status=(1, 2)[n % 2],
                     issued_at=_day(offset), fulfilled_at=_day(offset), due_at=_day(offset + 5),
                     assignments=[row(ids, net=f"{300 + n}.00", vat=f"{81 + n}.00",
                                      gross=f"{381 + 2 * n}.00")])
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _figures(page: str) -> list[tuple[str, str, Decimal | None]]:
    return [(html.unescape(href), key, Decimal(value) if value else None)
            for href, key, value in FIGURE.findall(page)]


def _amount_of(key: str) -> str:
    return next(AMOUNT_OF[prefix] for prefix in sorted(AMOUNT_OF, key=len, reverse=True)
                if key.startswith(prefix))


def test_every_dashboard_figure_equals_the_sum_over_the_list_it_links_to(dashboard, client):
    figures = _figures(dashboard)
    keys = {key for _href, key, _value in figures}
    assert {"revenue_month", "revenue_year", "expense_month", "expense_year", "receivables",
            "receivables_overdue", "payables", "payables_overdue"} <= keys
    assert len([k for k in keys if k.startswith("chart-")]) == 24
    for href, key, value in figures:
        listed = footer(client.get(href).get_data(as_text=True))
        assert listed["whole"], key
        assert value is not None and value == listed["huf"][_amount_of(key)], (key, href)
    assert any(value for _h, _k, value in figures)  # not every figure is zero


def test_revenue_this_month_sums_the_months_incomes_in_huf(dashboard):
    values = {key: value for _href, key, value in _figures(dashboard)}
    today = company_today()
    this_month = [n for n, offset in enumerate((0, -1, -20, -45, -100, -200, -400))
                  if (today + timedelta(days=offset)).replace(day=1) == today.replace(day=1)
                  and offset <= 0]
    expected = sum((Decimal(1000 * (n + 1)) for n in this_month), Decimal(0))
    assert values["revenue_month"] == expected + Decimal("40000")  # EUR-1: 100 EUR at 400


VAT_SHOWN = re.compile(r'data-vat="(vat_\w+)" data-value="([^"]+)"')
VAT_CARD = re.compile(r'<a [^>]*href="([^"]+)" id="figure-vat_due"')
BALANCE = re.compile(r'id="vat-balance" data-balance="([^"]*)"')


def test_vat_due_is_the_vat_pages_balance_and_links_there(dashboard, client):
    """The VAT card is the VAT summary's own figure for the company's period (expenses
    excluded from accounting left out, lines at their rate), not a second calculation."""
    values = {key: Decimal(value) for key, value in VAT_SHOWN.findall(dashboard)}
    assert values["vat_due"] == values["vat_out"] - values["vat_in"]
    vat_page = client.get(html.unescape(VAT_CARD.search(dashboard).group(1)))
    assert vat_page.status_code == 200
    assert values["vat_due"] == Decimal(BALANCE.search(vat_page.get_data(as_text=True)).group(1))
    assert "monthly" in dashboard  # the sandbox's company does not name its VAT period


@pytest.mark.parametrize("kind", ["taxes", "salaries"])
def test_taxes_and_salaries_due_link_to_the_months_unpaid_listing(dashboard, client, kind):
    match = re.search(rf'<a class="stat stat--amount" href="([^"]+)" id="figure-{kind}" '
                      rf'data-due="{kind}"', dashboard)
    assert match
    href = html.unescape(match.group(1))
    month = company_today().strftime("%Y-%m")
    assert f"from={month}" in href and f"to={month}" in href and "paid=no" in href
    assert client.get(href).status_code == 200


def test_the_chart_is_an_accessible_svg_with_a_table_of_the_same_numbers(dashboard):
    svg = dashboard[dashboard.index("<svg"):dashboard.index("</svg>")]
    assert 'role="group"' in svg and 'aria-describedby="chart-svg-desc"' in svg
    assert "<title id=" in svg and "<desc id=" in svg
    assert svg.count('class="chart__bar chart__bar--revenue"') == 12
    table = dashboard[dashboard.index('id="chart-table"'):]
    assert table.count("<tr><th scope=\"row\">") == 12
    cells = {(kind, int(index)): (href, Decimal(value) if value else None, html.unescape(text))
             for href, kind, index, value, text in CHART_CELL.findall(table)}
    positive = [value for _href, value, _text in cells.values() if value and value > 0]
    largest = max(positive)
    bars = BAR.findall(svg)
    assert len(bars) == len(cells) == 24
    for number, (href, kind, height, title) in enumerate(bars):
        cell_href, value, text = cells[(kind, number // 2 + 1)]
        assert href == cell_href and html.unescape(title).endswith(f": {text}"), (title, text)
        drawn = (max(value or 0, 0) / largest * PLOT_HEIGHT).quantize(Decimal("0.1"))
        assert Decimal(height) == drawn, (kind, number, value, height)
    assert max(Decimal(height) for *_rest, height, _title in bars) == PLOT_HEIGHT

