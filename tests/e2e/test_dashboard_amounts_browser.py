"""Browser tests of the dashboard's amounts and chart, and of a list's totals footer following its
filter; screenshots of the dashboard in Hungarian and English at 1280 and 360 pixels wide
(tests/artifacts/dashboard-<lang>-<width>.png), and with amounts in the billions at four widths
(tests/artifacts/dashboard-billions-<lang>-<width>.png)."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.numbers import company_today
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense, row
from tests.app.incomes_helpers import make_income
from tests.app.totals_support import in_huf
from tests.e2e.screens_support import SPILL_JS

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _day(offset: int) -> str:
    return (company_today() + timedelta(days=offset)).isoformat()


@pytest.fixture
def books(api) -> None:
    """Incomes and expenses over the last year, some unpaid and overdue, one in EUR."""
    eur = next(c["id"] for c in api.get("/2/currencies/").json() if c["code"] == "EUR")
    for n in range(14):
        offset = -27 * n
        make_income(api, invoice_number=f"V-{n:02d}", issued_at=_day(offset),
                    fulfilled_at=_day(offset), due_at=_day(offset + 15),
                    partner_name="Árvíztűrő Tükörfúrógép Kft.",
                    net_amount=f"{150000 + 9000 * n}.00", gross_amount=f"{190500 + 11430 * n}.00",
                    payments=[{"amount": f"{190500 + 11430 * n}.00"}] if n % 3 else [])
    make_income(api, invoice_number="EUR-7", currency=eur, exchange_rate="395.10",
                net_amount="800.00", gross_amount="1016.00", due_at=_day(-6))
    ids = expense_catalogue(api)
    for n in range(12):
        offset = -30 * n - 2
        make_expense(api, ids, invoice_number=f"K-{n:02d}", paid_status=(1, 2)[n % 2],
                     issued_at=_day(offset), fulfilled_at=_day(offset), due_at=_day(offset + 8),
                     assignments=[row(ids, net=f"{60000 + 4000 * n}.00",
                                      vat=f"{16200 + 1080 * n}.00",
                                      gross=f"{76200 + 5080 * n}.00")])


def _revenue_this_month(api) -> Decimal:
    """Net revenue in HUF of the incomes issued this month up to today, summed from the API."""
    today = company_today().isoformat()
    body = api.get("/1/incomes", params={"page_size": 500}).json()["results"]
    rows = body["incomes"] if isinstance(body, dict) else body
    codes = {c["id"]: c["code"] for c in api.get("/2/currencies/").json()}
    return sum((in_huf(Decimal(r["net_amount"]), Decimal(1) if codes[r["currency"]] == "HUF"
                       else Decimal(r["exchange_rate"]))
                for r in rows if r["issued_at"][:7] == today[:7] and r["issued_at"] <= today
                and not r.get("is_cancelled")), Decimal(0))


# The chart's month labels that a reader could not read: under 11 px, touching the next shown
# label, or not one per month (on a phone every other one may be hidden, never squeezed).
MONTH_LABELS_JS = """
() => {
  const items = [...document.querySelectorAll('.chart__months li')];
  if (items.length !== 12) return ['labels: ' + items.length];
  const shown = items.filter(li => getComputedStyle(li).visibility !== 'hidden');
  const text = li => { const r = document.createRange(); r.selectNodeContents(li);
                       return r.getBoundingClientRect(); };
  return shown.filter((li, i) => parseFloat(getComputedStyle(li).fontSize) < 11 ||
    (i + 1 < shown.length && text(li).right + 2 > text(shown[i + 1]).left)
  ).map(li => li.textContent + ' ' + getComputedStyle(li).fontSize);
}
"""


def test_dashboard_shows_amounts_chart_and_table_in_both_languages(books, signed_in_page,
                                                                    company, api):
    page = signed_in_page(company)
    ARTIFACTS.mkdir(exist_ok=True)
    expected = _revenue_this_month(api)
    assert expected > 0
    for lang, revenue in (("hu", "Bevétel ebben a hónapban"), ("en", "Revenue this month")):
        page.goto(f"/lang/{lang}")
        page.goto(f"/c/{company.id}/")
        figure = page.locator("#figure-revenue_month")
        expect(figure).to_contain_text(revenue)
        assert Decimal(figure.get_attribute("data-value")) == expected
        chart = page.locator("svg.chart__svg")
        assert chart.get_attribute("role") == "group"
        assert page.locator("svg.chart__svg rect.chart__bar--revenue").count() == 12
        assert page.locator("#chart-table").is_hidden()
        page.locator(".chart__table summary").click()
        expect(page.locator("#chart-table")).to_be_visible()
        page.locator(".chart__table summary").click()
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, (lang, width, overflow)
            assert page.evaluate(MONTH_LABELS_JS) == [], (lang, width)
            page.screenshot(path=str(ARTIFACTS / f"dashboard-{lang}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


def test_amounts_in_the_billions_stay_inside_their_cards_at_every_width(signed_in_page,
                                                                        company, api):
    make_income(api, invoice_number="NAGY-1", issued_at=_day(0), fulfilled_at=_day(0),
                due_at=_day(0), net_amount="9876543210.00", vat_amount="2666666667.00",
                gross_amount="12543209877.00")
    page = signed_in_page(company)
    ARTIFACTS.mkdir(exist_ok=True)
    problems = []
    for lang in ("hu", "en"):
        page.goto(f"/lang/{lang}")
        for width in (360, 1024, 1280, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"/c/{company.id}/")
            assert "543" in page.locator("#figure-revenue_year .stat__value").inner_text()
            problems += [f"{lang} {width}px: {box}" for box in page.evaluate(SPILL_JS)]
            page.screenshot(path=str(ARTIFACTS / f"dashboard-billions-{lang}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not problems, "\n".join(problems)


def test_a_figure_opens_the_list_whose_footer_says_the_same_amount(books, signed_in_page,
                                                                   company):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/")
    value = Decimal(page.locator("#figure-receivables").get_attribute("data-value"))
    page.locator("#figure-receivables").click()
    page.wait_for_url("**/incomes/**")
    assert Decimal(page.locator("#income-totals").get_attribute("data-huf-gross")) == value


def test_the_list_footer_follows_the_filter(books, signed_in_page, company, api):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/incomes/")
    footer = page.locator("#income-totals")
    assert footer.get_attribute("data-count") == "15"
    paid = api.get("/1/incomes", params={"paid_status": "2", "page_size": 100}).json()["count"]
    page.select_option("#paid_status", "2")
    expect(footer).to_have_attribute("data-count", str(paid))
    assert "paid_status=2" in page.url
    # The Overdue tab keeps the filter: a paid filter it can never list is refused on its field
    page.locator(".list-tabs__tab", has_text="Lejárt").click()
    expect(page.locator(".list-problems", has_text="Lejárt fül")).to_be_visible()
    expect(page.locator("#paid_status")).to_have_attribute("aria-invalid", "true")
    # The band stays one band: the refused field is as tall as its neighbour.
    refused, neighbour = (page.locator(f"{field}:has(#{name})").bounding_box()["height"]
                          for field, name in ((".field", "paid_status"), (".field", "type")))
    assert refused == neighbour
    page.select_option("#paid_status", "")
    expect(page.locator("th", has_text="Késés (nap)")).to_be_visible()
