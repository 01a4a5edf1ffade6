"""One concept, one heading on every page (docs/glossary.md): the categorisation rows' VAT rate,
the invoice number, the count of records."""
from __future__ import annotations

import html as entities
import re

import pytest

from tests.app import expenses_helpers, incomes_helpers
from tests.app.conftest import signed_in
from tests.app.list_pages import csv_rows
from tests.app.partner_support import currencies, income, new_partner
from tests.app.test_review_support import waiting

TH = re.compile(r"<th\b[^>]*>(.*?)</th>", re.S)
HIDDEN = re.compile(r'<span[^>]*aria-hidden="true"[^>]*>.*?</span>', re.S)
TAG = re.compile(r"<[^>]+>")
# (language, the rate's heading, the amount's heading, the bare word the rate was headed with)
RATE_TERMS = [("en", "VAT rate", "VAT amount", "VAT"), ("hu", "ÁFA-kulcs", "ÁFA összege", "ÁFA")]


def headings(page: str, marker: str) -> list[str]:
    """The column headings, as read aloud, of the first table head after marker."""
    head = page[page.index(marker):]
    head = head[:head.index("</thead>")]
    return [" ".join(entities.unescape(TAG.sub("", HIDDEN.sub("", cell))).split())
            for cell in TH.findall(head)]


def page_in(client, language: str, path: str) -> str:
    """A page in the language chosen through the switcher (the session keeps it)."""
    client.get(f"/lang/{language}")
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def _income_with_rate(api) -> dict:
    ids = incomes_helpers.catalogue(api)
    return incomes_helpers.make_income(
        api, invoice_number="RATE-1", net_amount="1000.00", vat_amount="270.00",
        gross_amount="1270.00", assignments=[{
            "revenue_type": ids.revenue_types[0], "net_amount": "1000.00",
            "vat_amount": "270.00", "gross_amount": "1270.00", "vat": ids.vats[0]}])


@pytest.mark.parametrize(("language", "rate", "amount", "bare"), RATE_TERMS)
@pytest.mark.parametrize(("area", "suffix", "marker"), [
    ("incomes", "", 'id="assignments"'), ("incomes", "/edit", "table--form"),
    ("expenses", "", 'id="assignments"'), ("expenses", "/edit", "table--form")])
def test_the_categorisation_rows_rate_is_headed_vat_rate_beside_the_vat_amount(
        client, company, api, language, rate, amount, bare, area, suffix, marker):
    if area == "incomes":
        record = _income_with_rate(api)
    else:
        record = expenses_helpers.make_expense(api, expenses_helpers.catalogue(api))
    base = signed_in(client, company, f"{area}/")
    columns = headings(page_in(client, language, f"{base}{record['id']}{suffix}"), marker)
    assert rate in columns and amount in columns, columns
    assert bare not in columns, columns


@pytest.mark.parametrize(("language", "term", "other"), [("en", "Invoice number", "Number"),
                                                         ("hu", "Számlaszám", "Sorszám")])
@pytest.mark.parametrize("area", ["incomes", "review"])
def test_the_income_list_and_the_review_queue_head_the_number_invoice_number(
        client, company, api, language, term, other, area):
    waiting(api, invoice_number="TERM-1")
    base = signed_in(client, company, f"{area}/")
    columns = headings(page_in(client, language, base), "<thead")
    assert term in columns and other not in columns, columns


@pytest.mark.parametrize(("language", "term", "other"), [("en", "Records", "Documents"),
                                                         ("hu", "Tételek", "Dokumentumok")])
def test_the_count_is_headed_records_on_the_vat_summary_partner_card_and_list_totals(
        client, company, api, language, term, other):
    partner = new_partner(api, "Számláló Kft.")
    income(api, partner, 5, "1000.00", currencies(api)["HUF"])
    base = signed_in(client, company)
    pages = {"vat/": 'id="vat-summary"', f"partners/{partner['id']}/card": 'id="receivables"',
             "incomes/": "table--totals"}
    for path, marker in pages.items():
        columns = headings(page_in(client, language, base + path), marker)
        assert term in columns and other not in columns, (path, columns)
    export = client.get(base + "vat/export").get_data(as_text=True)
    assert csv_rows(export)[0][-1] == term


def test_the_review_screen_leads_back_to_the_review_queue_by_its_name(client, company, api):
    made = waiting(api, invoice_number="BACK-1")
    base = signed_in(client, company, "review/")
    page = page_in(client, "hu", f"{base}{made['id']}")
    back = re.search(r'<a [^>]*id="back-to-queue"[^>]*>(.*?)</a>', page, re.S).group(1)
    # "Sor" alone also means a table row ("+ Új sor") on the same screen.
    assert " ".join(TAG.sub("", back).split()) == "← Ellenőrzési sor b"
