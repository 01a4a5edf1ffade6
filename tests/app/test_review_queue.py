"""The review queue: what it lists, why each row is there, filters, sorting and pages."""
from __future__ import annotations

import re

from tests.app.incomes_helpers import catalogue, set_company
from tests.app.test_review_support import queue_ids, review_base, waiting

ROW = re.compile(r'<tr data-row data-income-id="(\d+)"')


def _rows(response) -> list[int]:
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return [int(i) for i in ROW.findall(response.get_data(as_text=True))]


def _row_html(html: str, income_id: int) -> str:
    start = html.index(f'data-income-id="{income_id}"')
    return html[start:html.index("</tr>", start)]


def test_the_queue_lists_exactly_what_the_api_has_waiting_for_review(client, company, api):
    for number in range(3):
        waiting(api, invoice_number=f"W-{number}")
    waiting(api, invoice_number="DONE-1", review_done=True)
    waiting(api, invoice_number="FINE-1", needs_review=False)
    base = review_base(client, company)
    response = client.get(base)
    assert _rows(response) == queue_ids(api)
    assert len(queue_ids(api)) == 3
    assert "Waiting for review: 3" in response.get_data(as_text=True)


def test_each_row_says_why_it_needs_review(client, company, api):
    ids = catalogue(api)
    untyped = waiting(api, assignments=[{"revenue_type": None}], partner_name="Ismeretlen Kft.")
    tagged = waiting(api, tags=[ids.tags[0]], partner_name="Ismert Kft.")
    partner = api.post("/2/partners/create/", json={"name": "Friss Kft.",
                                                    "is_customer": True}).json()
    fresh = waiting(api, partner_id=partner["id"], partner_name="Friss Kft.")
    html = client.get(review_base(client, company)).get_data(as_text=True)
    assert "No revenue type" in _row_html(html, untyped["id"])
    assert "No tags" in _row_html(html, untyped["id"])
    assert "Partner not in the partner list" in _row_html(html, untyped["id"])
    assert "No tags" not in _row_html(html, tagged["id"])
    assert "No revenue type" not in _row_html(html, tagged["id"])
    assert "New partner" in _row_html(html, fresh["id"])


def test_several_matching_policies_show_and_filter(client, company, api):
    match = [{"field": "partner_name", "op": "contains", "value": "Duplikált"}]
    set_company(api, income_policies={"v": 2, "skip_for_multiple_match": True, "policies": [
        {"name": "Első", "conditions": match, "set": {"job_number": "A"}},
        {"name": "Második", "conditions": match, "set": {"job_number": "B"}}]})
    double = waiting(api, partner_name="Duplikált Kft.")
    none = waiting(api, partner_name="Más Kft.")
    base = review_base(client, company)
    html = client.get(base).get_data(as_text=True)
    assert "Several policies match: Első, Második" in _row_html(html, double["id"])
    assert "No policy matches" in _row_html(html, none["id"])
    assert _rows(client.get(f"{base}?policy=several")) == [double["id"]]
    assert _rows(client.get(f"{base}?policy=none")) == [none["id"]]


def test_partner_currency_and_dates_are_filtered_by_the_api(client, company, api,
                                                           sandbox_log):
    ids = catalogue(api)
    partner = api.post("/2/partners/create/", json={"name": "Szűrt Kft.",
                                                    "is_customer": True}).json()
    kept = waiting(api, partner_id=partner["id"], partner_name="Szűrt Kft.",
                   issued_at="2025-03-10")
    waiting(api, issued_at="2025-03-10")
    waiting(api, partner_id=partner["id"], partner_name="Szűrt Kft.", issued_at="2024-01-01")
    base = review_base(client, company)
    sandbox_log.reset()
    found = _rows(client.get(f"{base}?partner={partner['id']}&date_from=2025-03-01"
                             f"&date_to=2025-03-31&currency={ids.currencies['HUF']}"))
    assert found == [kept["id"]]
    args = [e["args"] for e in sandbox_log.entries(company_id=company.id, path="/1/incomes")]
    assert args and args[-1]["partner"] == [str(partner["id"])]
    assert args[-1]["from_date"] == ["2025-03-01"] and args[-1]["to_date"] == ["2025-03-31"]
    assert args[-1]["currency"] == [str(ids.currencies["HUF"])]


def test_amount_range_and_missing_revenue_type_are_filtered_by_bookdesk(client, company, api):
    small = waiting(api, net_amount="100.00", gross_amount="127.00")
    big = waiting(api, net_amount="10000.00", gross_amount="12700.00")
    untyped = waiting(api, net_amount="1000.00", gross_amount="1270.00",
                      assignments=[{"revenue_type": None}])
    base = review_base(client, company)
    assert _rows(client.get(f"{base}?amount_min=1 000&amount_max=13000")) == [
        i for i in queue_ids(api) if i in (big["id"], untyped["id"])]
    assert _rows(client.get(f"{base}?amount_max=127")) == [small["id"]]
    assert _rows(client.get(f"{base}?missing=y")) == [untyped["id"]]
    html = client.get(f"{base}?amount_min=abc").get_data(as_text=True)
    assert "Enter an amount" in html
    assert "Waiting for review: 0" not in html and "0 records" not in html, "no count is made up"


def test_sorting_and_pages_go_through_the_api(client, company, api, sandbox_log):
    for number in range(23):
        waiting(api, invoice_number=f"P-{number:02d}", gross_amount=f"{1000 + number}.00",
                net_amount=f"{800 + number}.00")
    base = review_base(client, company)
    first = _rows(client.get(f"{base}?ordering=gross_amount&page_size=20"))
    second = _rows(client.get(f"{base}?ordering=gross_amount&page_size=20&page=2"))
    assert first + second == queue_ids(api, ordering="gross_amount")
    assert len(first) == 20 and len(second) == 3
    html = client.get(f"{base}?ordering=-gross_amount&page_size=20").get_data(as_text=True)
    assert 'aria-sort="descending"' in html and "Page 1 of 2" in html


def test_a_dot_grouped_amount_is_refused_on_a_hungarian_queue_never_read_as_100(client, company,
                                                                               api):
    waiting(api, net_amount="100.00", gross_amount="127.00")  # listed if 100.000 were 100
    big = waiting(api, net_amount="100000.00", gross_amount="127000.00")
    base = review_base(client, company)
    client.get("/lang/hu")
    refused = client.get(f"{base}?amount_min=100.000")
    assert refused.status_code == 400
    assert "„100.000” kétféleképpen érthető" in refused.get_data(as_text=True)
    assert ROW.findall(refused.get_data(as_text=True)) == []
    assert _rows(client.get(f"{base}?amount_min=100 000")) == [big["id"]]
    assert _rows(client.get(f"{base}?amount_min=100.000,00")) == [big["id"]]
