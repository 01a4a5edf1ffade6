"""Revenue and stornos: the dashboard's revenue leaves out void documents only (cancelled, no
live storno naming them). A document a storno reverses counts in its month and the storno's
negative amounts in the storno's, as the VAT summary counts them; before, the revenue counted
the storno and dropped its original, so the amount came off twice. Each figure still equals
the list it opens, which reads the filter through to leave the void ones out (the API has no
filter for it), and that list pages, orders and exports as any other."""
from __future__ import annotations

import html
from datetime import timedelta
from decimal import Decimal
from itertools import count

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import totals
from app.numbers import company_today
from tests.app.conftest import sign_in
from tests.app.incomes_helpers import make_income
from tests.app.list_pages import exported, listed, shown_count
from tests.app.test_dashboard import _stat
from tests.app.test_dashboard_amounts import _figures
from tests.app.totals_support import footer

NUMBERS = count(1)
# One document of a scenario: its net amount, and what becomes of it.
FATES = st.sampled_from(["live", "void", "reversed", "reversed_by_cancelled_storno"])
SCENARIO = st.lists(st.tuples(st.integers(1, 999), FATES), min_size=1, max_size=4)


def _document(api, net: int, day: str, **state) -> dict:
    gross = Decimal(net) * Decimal("1.27")
    fields = {"type": 2, "issued_at": day, "fulfilled_at": day, "due_at": day, **state}
    return make_income(api, invoice_number=f"REV-{next(NUMBERS)}", net_amount=f"{net}.00",
                       gross_amount=f"{gross:.2f}", **fields)


def _storno(api, original: dict, day: str, **state) -> dict:
    return make_income(api, invoice_number=f"STO-{next(NUMBERS)}", type=2, invoice_type=1,
                       referred_invoice_number=original["invoice_number"], issued_at=day,
                       fulfilled_at=day, due_at=day, net_amount=f"-{original['net_amount']}",
                       gross_amount=f"-{original['gross_amount']}", **state)


def _make(api, net: int, fate: str, day: str) -> Decimal:
    """The document of one fate, made this day; the revenue it adds (its storno's too)."""
    original = _document(api, net, day, is_cancelled=fate != "live")
    if fate == "reversed":
        _storno(api, original, day)
        return Decimal(0)  # the original and its storno, both counted
    if fate == "reversed_by_cancelled_storno":
        _storno(api, original, day, is_cancelled=True)  # reverses nothing: both void
    return Decimal(net) if fate == "live" else Decimal(0)


def _revenue_month(client, company) -> tuple[str, Decimal]:
    page = client.get(f"/c/{company.id}/").get_data(as_text=True)
    return next((href, value) for href, key, value in _figures(page) if key == "revenue_month")


def test_a_storno_nets_its_original_out_and_a_void_document_is_left_out(client, company, api):
    today = company_today().isoformat()
    live = _document(api, 1000, today)
    _make(api, 2000, "reversed", today)
    _make(api, 4000, "void", today)
    sign_in(client, company)
    href, value = _revenue_month(client, company)
    assert value == Decimal("1000.00"), "the reversed pair nets to 0, the void one is left out"
    rows, pages = listed(client, href)
    assert live["invoice_number"] in rows and len(rows) == 3  # live, original, storno
    assert footer(pages[0])["huf"]["net"] == value


def test_an_earlier_months_reversed_document_counts_in_its_own_month(client, company, api):
    today = company_today()
    earlier = (today.replace(day=1) - timedelta(days=20)).isoformat()
    original = _document(api, 3000, earlier, is_cancelled=True)
    _storno(api, original, today.isoformat())
    sign_in(client, company)
    page = client.get(f"/c/{company.id}/").get_data(as_text=True)
    values = {key: value for _href, key, value in _figures(page)}
    assert values["revenue_month"] == Decimal("-3000.00")
    chart = sorted((key for key in values if key.startswith("chart-revenue-")),
                   key=lambda key: int(key.rsplit("-", 1)[1]))  # oldest month first
    assert values[chart[-2]] == Decimal("3000.00") and values[chart[-1]] == Decimal("-3000.00")


def test_the_not_void_list_pages_orders_counts_and_exports_as_it_shows(client, company, api):
    today = company_today().isoformat()
    made = [_document(api, 100 * n, today, partner_name=f"Vevő {n} Kft.") for n in range(1, 23)]
    _make(api, 50, "void", today)
    sign_in(client, company)
    url = (f"/c/{company.id}/incomes/?cancelled=not_void&ordering=-gross_amount&page_size=20"
           f"&date_field=issued_at&date_from={today}&date_to={today}")
    rows, pages = listed(client, url)
    assert rows == [income["invoice_number"] for income in made[::-1]]
    assert len(pages) == 2 and shown_count(pages[0]) == 22 and "Vevő 1 Kft." in pages[1]
    export = html.unescape(pages[0].split('id="export-csv" href="')[1].split('"')[0])
    assert exported(client, export) == rows


def test_revenue_equals_its_list_and_the_documents_left_for_any_storno_scenario(
        client, company, api):
    sign_in(client, company)
    today = company_today().isoformat()
    expected = [Decimal(0)]

    @settings(max_examples=12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(SCENARIO)
    def check(documents):
        expected[0] += sum((_make(api, net, fate, today) for net, fate in documents),
                           Decimal(0))
        href, value = _revenue_month(client, company)
        assert value == expected[0]
        _rows, pages = listed(client, href)
        assert footer(pages[0])["huf"]["net"] == value and footer(pages[0])["whole"]

    check()


def test_a_not_void_filter_too_large_to_read_through_is_refused_with_the_reason(
        client, company, api, monkeypatch):
    today = company_today().isoformat()
    for net in (100, 200, 300):
        _document(api, net, today)
    monkeypatch.setattr(totals, "ROW_LIMIT", 2)
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/?cancelled=not_void",
                          headers={"Accept-Language": "en"})
    text = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "More than 2 incomes match: too many to leave out the cancelled ones" in text
    assert shown_count(text) is None


def test_the_not_void_list_orders_empty_values_as_the_api_does(client, company, api):
    today = company_today().isoformat()
    for n, (due, partner) in enumerate([(today, "Béta Kft."), (None, None), (today, None),
                                        (None, "Alfa Kft.")]):
        _document(api, 100 + n, today, due_at=due, partner_name=partner)
    sign_in(client, company)
    base = f"/c/{company.id}/incomes/?date_field=issued_at&date_from={today}&date_to={today}"
    for ordering in ("due_at", "-due_at", "partner_name", "-partner_name"):
        plain, _pages = listed(client, f"{base}&ordering={ordering}")
        sifted, _pages = listed(client, f"{base}&ordering={ordering}&cancelled=not_void")
        assert sifted == plain, ordering


def test_a_page_past_the_end_of_the_not_void_list_opens_its_first_page(client, company, api):
    _document(api, 100, company_today().isoformat())
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/?cancelled=not_void&page=9")
    assert response.status_code == 303 and "page=" not in response.headers["Location"]


def test_a_cancelled_invoice_is_void_even_when_a_storno_names_its_number(client, company,
                                                                         api):
    today = company_today().isoformat()
    reversed_ = _document(api, 700, today, is_cancelled=True)
    make_income(api, invoice_number=reversed_["invoice_number"], type=1, is_cancelled=True,
                issued_at=today, net_amount="300.00", gross_amount="381.00")
    _storno(api, reversed_, today)
    sign_in(client, company)
    rows, _pages = listed(client, f"/c/{company.id}/incomes/?cancelled=not_void")
    assert rows.count(reversed_["invoice_number"]) == 1, "only the accounting document"
    assert _revenue_month(client, company)[1] == Decimal(0)


def test_exporting_a_not_void_filter_too_large_gives_the_list_with_the_reason(
        client, company, api, monkeypatch):
    for net in (100, 200, 300):
        _document(api, net, company_today().isoformat())
    monkeypatch.setattr(totals, "ROW_LIMIT", 2)
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/incomes/export?cancelled=not_void",
                          headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "too many to leave out the cancelled ones" in response.get_data(as_text=True)


def test_the_dashboard_reads_the_stornos_once_for_all_its_figures(client, company, api,
                                                                 sandbox_log):
    today = company_today().isoformat()
    _make(api, 2000, "reversed", today)
    _make(api, 4000, "void", today)
    sign_in(client, company)
    sandbox_log.reset()
    assert client.get(f"/c/{company.id}/").status_code == 200
    reads = [e for e in sandbox_log.entries(company_id=company.id, path="/1/incomes")
             if e["args"].get("invoice_type") == ["1"]]
    assert len(reads) == 1, "revenue month, year, chart and the VAT share one read"


def test_a_reversed_pair_adds_nothing_to_open_receivables_or_the_unpaid_card(client, company,
                                                                             api):
    today = company_today().isoformat()
    live = _document(api, 1000, today)
    _make(api, 2000, "reversed", today)  # the storno stays unpaid at its negative gross
    sign_in(client, company)
    page = client.get(f"/c/{company.id}/").get_data(as_text=True)
    href, value = next((h, v) for h, key, v in _figures(page) if key == "receivables")
    assert value == Decimal(live["gross_amount"])
    rows, _pages = listed(client, href)
    assert rows == [live["invoice_number"]]
    assert _stat(page, "unpaid") == "1"
