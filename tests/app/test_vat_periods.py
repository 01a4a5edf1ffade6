"""VAT periods: every period a URL may name has neighbours that exist, and a year outside
1..9998 is refused with the page's message (400), never a server error; the dashboard's VAT
period and chart months are these same periods."""
from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.dashboard import service as dashboard_service
from app.numbers import company_today, format_date
from app.upstream import company as company_api
from app.vat.forms import BadPeriod, parse_month, parse_period
from app.vat.service import FIRST_YEAR, KINDS, LAST_YEAR, MONTHLY, period_of
from tests.app.conftest import sign_in

TODAY = date(2026, 3, 15)


class RecordingClient:
    """A client that answers every list with no rows and keeps the date range it was asked."""

    ranges: list = []

    def iter_pages(self, path, params, resource=None):
        """No pages; the asked range is kept."""
        RecordingClient.ranges.append((date.fromisoformat(params["from_date"]),
                                       date.fromisoformat(params["to_date"])))
        return iter(())


@given(kind=st.sampled_from(KINDS), day=st.dates(min_value=date(FIRST_YEAR, 1, 1),
                                                 max_value=date(LAST_YEAR, 12, 31)),
       steps=st.sampled_from([-1, 1]))
def test_a_periods_neighbour_is_a_period_of_the_same_kind_or_none_at_the_ends(kind, day, steps):
    period = period_of(kind, day)
    neighbour = period.shifted(steps)
    if neighbour is None:
        assert (period.start.year, steps) in ((FIRST_YEAR, -1), (LAST_YEAR, 1))
        return
    assert neighbour.kind == kind
    assert FIRST_YEAR <= neighbour.start.year <= LAST_YEAR
    touching = (period.end, neighbour.start) if steps == 1 else (neighbour.end, period.start)
    assert touching[1].toordinal() - touching[0].toordinal() == 1
    assert parse_period(neighbour.key, MONTHLY, TODAY) == neighbour


@given(year=st.integers(min_value=FIRST_YEAR, max_value=LAST_YEAR),
       month=st.integers(min_value=1, max_value=12))
def test_every_named_period_in_the_years_allowed_parses_back_to_itself(year, month):
    period = parse_period(f"{year:04d}-{month:02d}", MONTHLY, TODAY)
    assert period.key == f"{year:04d}-{month:02d}"
    assert parse_month(period.key, TODAY) == period
    assert parse_period(str(year).zfill(4), MONTHLY, TODAY).key == f"{year:04d}"


@pytest.mark.parametrize("text", ["9999", "9999-12", "9999-Q4", "0000", "0000-01", "0000-Q1"])
def test_a_year_outside_the_allowed_ones_is_refused(text):
    with pytest.raises(BadPeriod):
        parse_period(text, MONTHLY, TODAY)


@pytest.mark.parametrize("text", ["9999-12", "0000-01"])
def test_a_checklist_month_outside_the_allowed_years_is_refused(text):
    with pytest.raises(BadPeriod):
        parse_month(text, TODAY)


@pytest.mark.parametrize("query", ["period=9999", "period=9999-12", "period=0000-01"])
def test_summary_of_a_year_out_of_range_says_so_with_a_400(client, company, query):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/vat/?{query}")
    assert response.status_code == 400
    assert "Give the period as a month" in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ["month=9999-12", "month=0000-12"])
def test_checklist_of_a_year_out_of_range_says_so_with_a_400(client, company, query):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/vat/month-end?{query}")
    assert response.status_code == 400
    assert "Give the month as 2026-03." in response.get_data(as_text=True)


def test_the_first_and_last_allowed_periods_show_without_the_missing_neighbour(client,
                                                                               company):
    sign_in(client, company)
    first = client.get(f"/c/{company.id}/vat/?period=0001-01").get_data(as_text=True)
    last = client.get(f"/c/{company.id}/vat/?period=9998").get_data(as_text=True)
    month = client.get(f"/c/{company.id}/vat/month-end?month=0001-01")
    assert 'rel="prev"' not in first and "period=0001-02" in first
    assert 'rel="next"' not in last and 'rel="prev"' in last and "period=9997" in last
    assert month.status_code == 200 and 'rel="prev"' not in month.get_data(as_text=True)


@given(kind=st.sampled_from(KINDS), day=st.dates(min_value=date(1900, 1, 1),
                                                 max_value=date(9000, 12, 31)))
def test_the_dashboards_vat_reads_and_chart_months_are_vat_periods(kind, day):
    period = period_of(kind, day)
    reads = dashboard_service.vat_tasks(RecordingClient(), lambda: period, dict)
    reads["vat:incomes"]()
    reads["vat:expenses"]()
    assert RecordingClient.ranges == [(period.start, period.end)] * 2
    RecordingClient.ranges.clear()
    months = dashboard_service.chart_months(day)
    assert len(months) == dashboard_service.CHART_MONTHS
    assert months[-1] == period_of(MONTHLY, day)
    pairs = zip(months, months[1:], strict=False)
    assert all(a.end + timedelta(days=1) == b.start for a, b in pairs)


def test_a_quarterly_companys_dashboard_shows_the_vat_pages_period(client, company,
                                                                   monkeypatch):
    # The company object itself says quarterly (the sandbox's names no VAT period): the
    # dashboard and the VAT page each find it through their own reads.
    real = company_api.info
    monkeypatch.setattr(company_api, "info",
                        lambda client: {**real(client), "vat_period_type": "quarterly"})
    sign_in(client, company)
    period = period_of("quarterly", company_today())
    dashboard = client.get(f"/c/{company.id}/").get_data(as_text=True)
    vat_page = client.get(f"/c/{company.id}/vat/").get_data(as_text=True)
    assert f'href="/c/{company.id}/vat/export?period={period.key}"' in vat_page
    card = dashboard[dashboard.index('id="figure-vat_due"'):]
    assert re.search(r'class="stat__label">VAT due · quarterly</span>', card)
    hint = re.search(r'class="stat__hint">([^:]*):', card).group(1)
    with client.application.test_request_context():
        shown = (format_date(period.start), format_date(period.end))
    assert [part.strip() for part in hint.split("–")] == list(shown)


@pytest.mark.parametrize(("language", "sentence", "button"), [
    ("hu", "A cég ÁFA-időszaka: havi", "Havi"),
    ("en", "The company’s VAT period: monthly", "Monthly")])
def test_the_vat_page_names_the_companys_period_in_lower_case_mid_sentence(client, company,
                                                                            language, sentence,
                                                                            button):
    sign_in(client, company)
    client.get(f"/lang/{language}")
    html = client.get(f"/c/{company.id}/vat/").get_data(as_text=True)
    assert sentence in html
    # The period's button stands alone: it keeps its capital.
    assert re.search(rf'aria-current="page">{button}</a>', html)
