"""The income list: filters in the URL, API ordering and pages, CSV export, call budget."""
from __future__ import annotations

import re

from tests.app.conftest import signed_in
from tests.app.incomes_helpers import catalogue, make_income, upstream_calls
from tests.app.list_pages import csv_rows


def _make_some(api, count: int, **fields) -> list[dict]:
    return [make_income(api, invoice_number=f"INV-{i:03d}", issued_at=f"2025-03-{i % 27 + 1:02d}",
                        **fields) for i in range(count)]


def test_list_shows_number_partner_amounts_with_currency_paid_state_and_tags(client, company,
                                                                             api):
    ids = catalogue(api)
    make_income(api, invoice_number="A-1", partner_name="Alfa Kft.", tags=[ids.tags[0]],
                gross_amount="1270.00", net_amount="1000.00", needs_review=True)
    base = signed_in(client, company, "incomes/")
    html = client.get(base, headers={"Accept-Language": "hu"}).get_data(as_text=True)
    assert "A-1" in html and "Alfa Kft." in html
    assert "1\xa0270\xa0Ft" in html
    assert "Budapest" in html
    assert "To review" in html or "Ellenőrizendő" in html


def test_filters_reach_the_api_and_stay_in_the_links(client, company, api, sandbox_log):
    make_income(api, invoice_number="PAID-1", payments=[{"amount": "1270.00"}])
    make_income(api, invoice_number="OPEN-1")
    base = signed_in(client, company, "incomes/")
    sandbox_log.reset()
    html = client.get(base + "?paid_status=2&q=PAID&ordering=-gross_amount").get_data(
        as_text=True)
    sent = sandbox_log.entries(company_id=company.id, path="/1/incomes")[-1]["args"]
    assert sent["paid_status"] == ["2"] and sent["search"] == ["PAID"]
    assert sent["ordering"] == ["-gross_amount"]
    assert "PAID-1" in html and "OPEN-1" not in html
    assert "paid_status=2" in html.split('sort-link')[1]


def test_only_api_orderable_columns_are_sent_as_ordering(client, company, api, sandbox_log):
    make_income(api)
    base = signed_in(client, company, "incomes/")
    sandbox_log.reset()
    client.get(base + "?ordering=note")
    sent = sandbox_log.entries(company_id=company.id, path="/1/incomes")[-1]["args"]
    assert sent["ordering"] == ["-issued_at"]


def test_pagination_follows_the_api_pages(client, company, api):
    _make_some(api, 23)
    base = signed_in(client, company, "incomes/")
    first = client.get(base + "?page_size=20&ordering=invoice_number").get_data(as_text=True)
    assert "INV-000" in first and "INV-020" not in first
    assert "page=2" in first and "23" in first
    second = client.get(base + "?page_size=20&ordering=invoice_number&page=2").get_data(
        as_text=True)
    assert "INV-020" in second and "INV-022" in second and "INV-000" not in second


def test_invalid_date_filter_is_shown_without_asking_the_api(client, company, sandbox_log):
    base = signed_in(client, company, "incomes/")
    sandbox_log.reset()
    response = client.get(base + "?date_from=2025-13-45")
    assert response.status_code == 400
    assert "Enter a date, e.g. Mar 5, 2024." in response.get_data(as_text=True)
    assert sandbox_log.entries(company_id=company.id, path="/1/incomes") == []
    # nothing was read, so no count is shown: a 0 would not be the filter's
    assert not re.search(r"\b0 records\b", response.get_data(as_text=True))


def test_date_range_applies_to_the_chosen_date_field(client, company, api, sandbox_log):
    make_income(api, invoice_number="EARLY", due_at="2025-01-10")
    make_income(api, invoice_number="LATE", due_at="2025-06-10")
    base = signed_in(client, company, "incomes/")
    sandbox_log.reset()
    html = client.get(base + "?date_field=due_at&date_from=2025.05.01.").get_data(as_text=True)
    sent = sandbox_log.entries(company_id=company.id, path="/1/incomes")[-1]["args"]
    assert sent["date_field"] == ["due_at"] and sent["from_date"] == ["2025-05-01"]
    assert "LATE" in html and "EARLY" not in html


def test_list_page_costs_one_upstream_call_with_a_warm_cache(client, company, api):
    _make_some(api, 5)
    base = signed_in(client, company, "incomes/")
    client.get(base)
    assert upstream_calls(client.get(base + "?type=2")) <= 2
    assert upstream_calls(client.get(base)) == 1


def test_htmx_filter_request_gets_the_list_fragment(client, company, api):
    make_income(api, invoice_number="FRAG-1")
    base = signed_in(client, company, "incomes/")
    html = client.get(base, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="income-list"' in html and "FRAG-1" in html and "<html" not in html


def test_csv_export_in_hungarian_has_bom_semicolons_and_decimal_commas(client, company, api):
    make_income(api, invoice_number="CSV-1", partner_name="Árvíztűrő; Kft.",
                net_amount="1000.50", gross_amount="1270.64")
    base = signed_in(client, company, "incomes/")
    response = client.get(base + "export", headers={"Accept-Language": "hu"})
    raw = response.data
    assert raw.startswith("\ufeff".encode())
    text = raw.decode("utf-8-sig")
    rows = csv_rows(text, ";")
    assert rows[1][0] == "CSV-1" and rows[1][3] == "Árvíztűrő; Kft."
    assert "1000,50" in rows[1] and "1270,64" in rows[1]
    assert response.mimetype == "text/csv"


def test_csv_export_in_english_uses_commas_and_every_page_of_the_filter(client, company, api,
                                                                        monkeypatch):
    monkeypatch.setattr("app.incomes.views.EXPORT_PAGE_SIZE", 4)
    _make_some(api, 10, partner_name="Béta Zrt.")
    make_income(api, invoice_number="OTHER", partner_name="Gamma Bt.")
    base = signed_in(client, company, "incomes/")
    client.get("/lang/en")
    text = client.get(base + "export?q=B%C3%A9ta").data.decode("utf-8-sig")
    rows = csv_rows(text, ",")
    assert rows[0][0] == "Invoice number"
    assert len(rows) == 11 and all(row[3] == "Béta Zrt." for row in rows[1:])


def test_partner_search_returns_options(client, company, api):
    api.post("/2/partners/create/", json={"name": "Kappa Kft.", "is_customer": True,
                                          "tax_number": "11111111-2-41"})
    base = signed_in(client, company, "incomes/")
    html = client.get(base + "partners?partner_q=kap").get_data(as_text=True)
    assert "<option" in html and "Kappa Kft." in html
