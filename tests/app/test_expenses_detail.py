"""The expense page: every field, assignments with VAT objects and references, the file shown
inline through Bookdesk's own route (PDF framed, images shown, XML downloaded)."""
from __future__ import annotations

import re

import pytest
import requests

from tests.app.conftest import signed_in
from tests.app.expenses_helpers import (
    PDF,
    PNG,
    XML,
    artifact,
    catalogue,
    make_expense,
    row,
)
from tests.app.incomes_helpers import upstream_calls
from tests.conftest import Api, in_flight_together


def test_detail_shows_every_field_items_and_assignment_vat(client, company, api):
    ids = catalogue(api)
    created = make_expense(
        api, invoice_number="SZ-77", partner_name="Delta Zrt.", secondary_id="ERP-5",
        issued_at="2025-03-05", due_at="2025-03-20", note="Irodaszer",
        custom_fields={"Projekt": "Webshop"}, tags=[ids.tags[0]],
        items=[{"name": "Toner", "quantity": 2, "unit_price": "500.00", "vat_percent": 27}],
        assignments=[row(ids, job_number="JOB-9", tags=[ids.tags[1]])])
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    for text in ("SZ-77", "Delta Zrt.", "ERP-5", "Irodaszer", "Projekt", "Webshop", "Toner",
                 "JOB-9", "Budapest", "Debrecen", created["filing_number"], "Anyagköltség"):
        assert text in html, text
    # One percent style, CLDR's: the VAT rate and the category name read alike.
    assert "27%" in html and "27 %" not in html and "27\xa0%" not in html


@pytest.mark.parametrize(("language", "name"), [("en", "Hungarian Forint"),
                                              ("hu", "magyar forint")])
def test_the_currency_is_named_in_the_pages_language(client, company, api, language, name):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"]),
                      headers={"Accept-Language": language}).get_data(as_text=True)
    assert f"HUF – {name}" in html


def test_a_foreign_expense_shows_its_gross_in_forints_as_the_list_footer_counts_it(
        client, company, api):
    ids = catalogue(api)
    created = make_expense(api, currency=2, exchange_rate="392.15",
                           assignments=[row(ids, "100.00", "27.00", "127.00")])
    home = make_expense(api, assignments=[row(ids)])
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    block = html.split('id="gross-in-forints"')[1].split("</div>")[0]
    assert "Gross in forints" in block and "49,803.05" in block  # 127.00 × 392.15
    assert 'id="gross-in-forints"' not in client.get(base + str(home["id"])).get_data(
        as_text=True), "a forint expense needs no second figure"


def test_detail_names_ledger_numbers_as_the_selects_do_and_shows_no_internal_id(
        client, make_company, sandbox_url):
    company = make_company(advanced_accounting=True)
    api = Api(sandbox_url, company)
    ids = catalogue(api)
    created = make_expense(api, assignments=[row(
        ids, ledger_number=ids.ledger_numbers["511"], vat_ledger_number=ids.ledger_numbers["467"],
        company_vat_category=ids.vats[1])])
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    table = html.split('id="assignments"')[1].split("</table>")[0]
    cells = [" ".join(re.sub(r"<[^>]+>", " ", cell).split())
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)]
    assert "511 – Anyagköltség" in cells and "467 – Fizetendő ÁFA" in cells
    assert "18%" in cells
    assert not [cell for cell in cells if "#" in cell], cells


def test_pdf_is_framed_from_the_same_origin_route_never_the_signed_link(client, company, api):
    created = make_expense(api, catalogue(api), artifact=artifact(PDF, "szamla.pdf"))
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    file_url = f"{base}{created['id']}/file"
    assert f'<iframe class="artifact__frame" id="artifact-pdf" src="{file_url}"' in html
    assert "sig=" not in html and "_files" not in html
    response = client.get(file_url)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data == PDF
    assert response.headers["Content-Disposition"].startswith('inline; filename="szamla.pdf"')
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]


def test_image_is_shown_as_img_and_served_with_its_sniffed_type(client, company, api):
    created = make_expense(api, catalogue(api), artifact=artifact(PNG, "scan.pdf"))
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert 'id="artifact-image"' in html and "<iframe" not in html
    response = client.get(f"{base}{created['id']}/file")
    assert response.mimetype == "image/png"
    assert 'filename="scan.pdf.png"' in response.headers["Content-Disposition"]


def test_xml_is_offered_as_a_download_only(client, company, api):
    created = make_expense(api, catalogue(api), artifact=artifact(XML, "e-szamla.xml"))
    base = signed_in(client, company, "expenses/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert "<iframe" not in html and 'id="artifact-image"' not in html
    assert "cannot be shown here" in html
    response = client.get(f"{base}{created['id']}/file")
    assert response.mimetype == "application/xml"
    assert response.headers["Content-Disposition"].startswith("attachment;")


def test_download_link_sends_the_pdf_as_an_attachment(client, company, api):
    created = make_expense(api, catalogue(api), artifact=artifact(PDF, "árvíztűrő.pdf"))
    base = signed_in(client, company, "expenses/")
    response = client.get(f"{base}{created['id']}/file?download=1")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert "filename*=UTF-8''%C3%A1rv%C3%ADzt%C5%B1r%C5%91.pdf" in disposition


def test_no_file_means_no_document_panel_and_a_404(client, company, api):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/")
    assert 'id="artifact"' not in client.get(base + str(created["id"])).get_data(as_text=True)
    assert client.get(f"{base}{created['id']}/file").status_code == 404


def test_detail_costs_one_call_and_the_file_two_with_a_warm_cache(client, company, api):
    created = make_expense(api, catalogue(api), artifact=artifact())
    base = signed_in(client, company, "expenses/")
    client.get(base + str(created["id"]))
    assert upstream_calls(client.get(base + str(created["id"]))) == 1
    assert upstream_calls(client.get(f"{base}{created['id']}/file")) == 2


def test_unknown_expense_is_a_404_page(client, company, api):
    base = signed_in(client, company, "expenses/")
    assert client.get(base + "999999").status_code == 404


@pytest.mark.usefixtures("no_gc_pause")
def test_detail_on_a_cold_cache_reads_everything_in_one_round_each_once(
        client, company, api, sandbox_log, faults):
    created = make_expense(api, catalogue(api))
    base = signed_in(client, company, "expenses/")
    faults.add(path="*", method="GET", kind="latency", latency_ms=300)
    sandbox_log.reset()
    assert client.get(base + str(created["id"])).status_code == 200
    gets = sandbox_log.entries(company_id=company.id, method="GET")
    asked = [(e["path"].rstrip("/"), e.get("query")) for e in gets]
    # The settings, the expense and each of the five catalogues, none twice.
    assert len(asked) == len(set(map(str, asked))) == 7, asked
    assert in_flight_together(gets), [(e["path"], e["at"], e["duration_ms"]) for e in gets]


def test_a_link_that_lapses_before_its_fetch_is_asked_for_once_more(client, company, api,
                                                                    faults, sandbox_url):
    created = make_expense(api, catalogue(api), artifact=artifact(PDF, "lassu.pdf"))
    base = signed_in(client, company, "expenses/")
    requests.put(f"{sandbox_url}/_sandbox/artifacts/url-ttl/", json={"seconds": 1}, timeout=10)
    try:
        faults.add(path="/_files/*", method="GET", kind="latency", latency_ms=2500, count=1)
        response = client.get(f"{base}{created['id']}/file?download=1")
    finally:
        requests.put(f"{sandbox_url}/_sandbox/artifacts/url-ttl/", json={"seconds": None},
                     timeout=10)
    assert response.status_code == 200 and response.get_data() == PDF
