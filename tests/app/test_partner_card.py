"""The partner card: open receivables and payables and their ageing equal sums the test computes
from the API's own records; the documents are the partner's only; the statement exports as CSV
and as XLSX with numeric cells; the card reads a fixed number of pages, never one per row."""
from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.exports import TOTAL_HEADER
from app.numbers import company_today
from app.partners import present
from tests.app.conftest import sign_in
from tests.app.list_pages import csv_rows, xlsx_rows
from tests.app.partner_support import (
    BUCKET_LIMITS,
    api_records,
    currencies,
    expected_sums,
    income,
    new_partner,
    seed,
)
from tests.conftest import in_flight_together
from tests.sandbox import expense_support

ecat = expense_support.ecat  # the fixture of the company's expense catalogue ids

TODAY = date(2026, 3, 31)
STATEMENT_HEADER = ["Document", "Invoice number", "Issue date", "Due date", "Currency", "Gross",
                    "Paid status", "Cancelled", "Days overdue"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(-40, 400)),
                          st.decimals(min_value=-10**6, max_value=10**7, places=2),
                          st.sampled_from(["HUF", "EUR"])), max_size=25))
def test_ageing_buckets_are_the_sums_of_the_documents_by_days_past_due(documents):
    records = [{"due_at": None if late is None else (TODAY - timedelta(days=late)).isoformat(),
                "gross_amount": str(gross), "gross": str(gross), "currency": code, "code": code}
               for late, gross, code in documents]
    lines = present.ageing(records, {}, TODAY)
    expected = expected_sums(records, TODAY)
    assert [line.code for line in lines] == sorted(expected)
    for line in lines:
        sums = expected[line.code]
        assert (line.open, line.not_due) == (sums["open"], sums["not_due"])
        assert line.buckets == {k: sums[k] for k in BUCKET_LIMITS}
        assert line.overdue == line.open - line.not_due


def test_bucket_edges_are_30_60_90_days_past_due():
    assert [present.bucket_of(d) for d in (None, -3, 0, 1, 30, 31, 60, 61, 90, 91, 900)] == [
        None, None, None, "1-30", "1-30", "31-60", "31-60", "61-90", "61-90", "90+", "90+"]


def _card_figures(html: str, side: str) -> dict[str, dict[str, Decimal]]:
    section = re.search(rf'<section[^>]*id="{side}".*?</section>', html, re.S).group(0)
    figures = {}
    for code, row in re.findall(r'<tr data-currency="([A-Z]+)">(.*?)</tr>', section, re.S):
        figures[code] = {key: Decimal(value) for key, value in
                         re.findall(r'data-cell="([^"]+)" data-value="([^"]+)"', row)}
    return figures


def test_card_open_amounts_and_ageing_equal_the_api_records(client, company, api, ecat):
    partner, codes = seed(api, ecat)
    receivables, payables = api_records(api, partner, codes)
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/partners/{partner['id']}/card")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    for side, records in (("receivables", receivables), ("payables", payables)):
        expected = expected_sums(records, company_today())
        figures = _card_figures(html, side)
        assert set(figures) == set(expected)
        for code, sums in expected.items():
            assert {k: figures[code][k] for k in sums} == sums
            assert figures[code]["overdue"] == sums["open"] - sums["not_due"]
    assert _card_figures(html, "receivables")["HUF"]["open"] == Decimal("15500.50")
    assert _card_figures(html, "payables")["HUF"]["90+"] == Decimal("1500.00")


def test_a_document_and_the_storno_reversing_it_owe_nothing_on_the_card(client, company, api):
    partner, codes = new_partner(api, "Sztornó Kft."), currencies(api)
    income(api, partner, 5, "1000.00", codes["HUF"])
    reversed_one = income(api, partner, 30, "640.00", codes["HUF"], type=2, is_cancelled=True)
    income(api, partner, 30, "-640.00", codes["HUF"], type=2, invoice_type=1,
           referred_invoice_number=reversed_one["invoice_number"])
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/partners/{partner['id']}/card").get_data(as_text=True)
    assert _card_figures(html, "receivables")["HUF"]["open"] == Decimal("1000.00")


def test_card_lists_only_the_partners_documents_linked_to_their_pages(client, company, api,
                                                                     ecat):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/partners/{partner['id']}/card").get_data(as_text=True)
    incomes = re.search(r'id="income-documents".*?</section>', html, re.S).group(0)
    expenses = re.search(r'id="expense-documents".*?</section>', html, re.S).group(0)
    assert len(re.findall(rf'href="/c/{company.id}/incomes/\d+"', incomes)) == 7
    assert len(re.findall(rf'href="/c/{company.id}/expenses/\d+"', expenses)) == 3
    assert "E-40-123.00" not in expenses
    assert len(re.findall(r'badge--muted">(Cancelled|Érvénytelenítve)<', incomes)) == 1


def test_card_reads_a_fixed_number_of_pages_not_one_per_row(client, company, api, ecat,
                                                            sandbox_log):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    sandbox_log.reset()
    client.get(f"/c/{company.id}/partners/{partner['id']}/card")
    gets = sandbox_log.entries(company_id=company.id, method="GET")
    lists = {r["path"].rstrip("/") for r in gets}
    assert {"/1/incomes", "/2/expenses"} <= lists, lists
    detail = [r for r in gets if re.search(r"/(incomes|expenses)/\d+", r["path"])]
    assert detail == []
    assert len(gets) <= 8


def test_the_partner_list_links_to_the_card(client, company, api):
    partner = new_partner(api, "Listás Kft.")
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/partners/").get_data(as_text=True)
    assert f'href="/c/{company.id}/partners/{partner["id"]}/card"' in html


def test_statement_xlsx_has_numeric_cells_and_every_document(client, company, api, ecat):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/partners/{partner['id']}/statement?format=xlsx")
    assert response.status_code == 200
    [header, *rows] = xlsx_rows(response.get_data())
    cells = xlsx_rows(response.get_data(), min_row=2, values_only=False)
    assert len(rows) == 10
    gross, late = 5, 8
    assert list(header) == STATEMENT_HEADER
    assert sum(Decimal(str(row[gross])) for row in rows) == Decimal("20432.49")
    amounts = [row[gross] for row in cells]
    assert all(cell.data_type == "n" and cell.value is not None for cell in amounts)
    days = [row[late] for row in cells]
    assert all(cell.data_type == "n" for cell in days if cell.value is not None)
    assert {row[late] for row in rows if row[late] is not None} >= {10, 45, 75, 200, 95}


def test_statement_csv_has_the_bom_header_and_a_row_per_document(client, company, api,
                                                                 ecat):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    client.get("/lang/en")
    response = client.get(f"/c/{company.id}/partners/{partner['id']}/statement")
    text = response.get_data().decode("utf-8")
    assert response.status_code == 200 and text.startswith("\ufeff")
    [header, *records] = csv_rows(text, ",")
    assert header == STATEMENT_HEADER
    assert len(records) == 10
    assert sorted(record[1] for record in records) == sorted(_invoice_numbers(api, partner))


def test_statement_is_the_cards_documents_in_its_order_with_the_cancelled_one_marked(
        client, company, api, ecat):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    client.get("/lang/en")
    card = client.get(f"/c/{company.id}/partners/{partner['id']}/card").get_data(as_text=True)
    shown = re.findall(r'<tr data-document-id="\d+">\s*<td><a [^>]*>([^<]+)</a>', card)
    response = client.get(f"/c/{company.id}/partners/{partner['id']}/statement")
    [_header, *records] = csv_rows(response.get_data().decode("utf-8"), ",")
    assert [record[1] for record in records] == shown and len(shown) == 10
    incomes = api.get("/1/incomes", params={"partner": partner["id"]}).json()["results"]
    voided = [i["invoice_number"] for i in incomes["incomes"] if i["is_cancelled"]]
    assert [record[1] for record in records if record[7] == "Yes"] == voided != []
    assert TOTAL_HEADER not in response.headers  # no one list's count is the file's rows


def _invoice_numbers(api, partner: dict) -> list[str]:
    """The invoice numbers of every income and expense of the partner, as the API lists them."""
    incomes = api.get("/1/incomes", params={"partner": partner["id"], "page_size": 100})
    expenses = api.get("/2/expenses", params={"page_size": 100}).json()["results"]["expenses"]
    return ([row["invoice_number"] for row in incomes.json()["results"]["incomes"]]
            + [row["invoice_number"] for row in expenses if row["partner"] == partner["id"]])


@pytest.mark.usefixtures("no_gc_pause")
def test_card_reads_the_partner_side_by_side_with_its_incomes(client, company, api, ecat,
                                                             sandbox_log, faults):
    partner, _codes = seed(api, ecat)
    sign_in(client, company)
    faults.add(path="/1/partners/*", method="GET", kind="latency", latency_ms=300)
    faults.add(path="/1/incomes*", method="GET", kind="latency", latency_ms=300)
    sandbox_log.reset()
    assert client.get(f"/c/{company.id}/partners/{partner['id']}/card").status_code == 200
    gets = sandbox_log.entries(company_id=company.id, method="GET")
    (own,) = [r for r in gets if r["path"].rstrip("/") == f"/1/partners/{partner['id']}"]
    incomes = [r for r in gets if r["path"].startswith("/1/incomes")]
    assert incomes and in_flight_together([own, *incomes]), \
        [(r["path"], r["at"], r["duration_ms"]) for r in [own, *incomes]]
