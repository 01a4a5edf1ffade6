"""The income page: items, assignments, accounting fields, storno links, file, cancelling."""
from __future__ import annotations

import base64

from app.forms import invalidate_settings
from tests.app.conftest import csrf_token, signed_in
from tests.app.incomes_helpers import (
    catalogue,
    income,
    make_income,
    set_company,
    set_state,
    upstream_calls,
)

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _document(api, ids, number="DOC-1", **extra) -> dict:
    body = {"invoice_number": number, "issued_at": "2025-03-05", "net_amount": "1000.00",
            "gross_amount": "1270.00", "partner_name": "Alfa Kft.",
            "assignments": [{"revenue_type": ids.revenue_types[0], "net_amount": "1000.00",
                             "gross_amount": "1270.00", "vat": ids.vats[0],
                             "tags": [ids.tags[1]], "job_number": "JOB-7",
                             "ledger_number_id": ids.ledger_numbers["911"]}], **extra}
    response = api.post("/2/incomes/create/", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_detail_shows_items_with_vat_percent_and_assignment_details(client, company, api):
    ids = catalogue(api)
    created = _document(api, ids, items=[{"name": "Tanácsadás", "quantity": "2",
                                          "unit_price": "500.00", "vat_percent": 27}])
    base = signed_in(client, company, "incomes/")
    html = client.get(base + str(created["id"]), headers={"Accept-Language": "en"}).get_data(
        as_text=True)
    assert "Tanácsadás" in html and "27%" in html
    assert "Árbevétel" in html and "JOB-7" in html and "Debrecen" in html
    assert "911 – Belföldi értékesítés árbevétele" in html


def test_a_foreign_income_shows_its_gross_in_forints_at_its_rate(client, company, api):
    made = make_income(api, currency=2, exchange_rate="392.15", net_amount="100.00",
                       vat_amount="27.00", gross_amount="127.00")
    base = signed_in(client, company, "incomes/")
    html = client.get(f"{base}{made['id']}").get_data(as_text=True)
    block = html.split('id="gross-in-forints"')[1].split("</div>")[0]
    assert "Gross in forints" in block and "49,803.05" in block  # 127.00 × 392.15


def test_accounting_fields_are_requested_only_when_the_company_uses_them(client, company, api,
                                                                        sandbox_log):
    created = make_income(api)
    base = signed_in(client, company, "incomes/")
    client.get(base + str(created["id"]))
    sent = sandbox_log.entries(company_id=company.id, path=f"/1/incomes/{created['id']}")
    assert "accounting" not in sent[-1]["args"]["fields"][0]
    set_company(api, enable_accounting_id=True)
    invalidate_settings(company.id)
    sandbox_log.reset()
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    sent = sandbox_log.entries(company_id=company.id, path=f"/1/incomes/{created['id']}")
    assert "accounting" in sent[-1]["args"]["fields"][0]
    assert "Accounting ID" in html or "Könyvelési azonosító" in html


def test_detail_costs_one_call_and_a_storno_or_a_cancelled_document_two_with_a_warm_cache(
        client, company, api):
    ids = catalogue(api)
    live = _document(api, ids, "LIVE-1")
    invoice = make_income(api, invoice_number="INV-1", type=1)
    original = _document(api, ids, "ORIG-1")
    storno = _document(api, ids, "STORNO-1", invoice_type=1, referred_invoice_number="ORIG-1")
    base = signed_in(client, company, "incomes/")
    client.get(base + str(live["id"]))
    assert upstream_calls(client.get(base + str(invoice["id"]))) == 1
    # An accounting document also reads the stornos: a cancelled one, to say whether one
    # reversed it; a live one, to say whether one names it though the API did not cancel it.
    assert upstream_calls(client.get(base + str(live["id"]))) == 2
    assert upstream_calls(client.get(base + str(original["id"]))) == 2
    assert upstream_calls(client.get(base + str(storno["id"]))) == 2


def test_a_live_document_a_storno_names_says_so_and_offers_no_second_storno(client, company,
                                                                            api):
    ids = catalogue(api)
    _document(api, ids, "STORNO-9", invoice_type=1, referred_invoice_number="LATE-9",
              net_amount="-1000.00", gross_amount="-1270.00")
    late = _document(api, ids, "LATE-9")  # after its storno: the API does not cancel it
    other = _document(api, ids, "PLAIN-9")
    base = signed_in(client, company, "incomes/")
    page = client.get(base + str(late["id"]), headers={"Accept-Language": "en"})
    html = page.get_data(as_text=True)
    assert 'id="storno-pending"' in html and "a second storno would reverse it twice" in html
    assert 'id="create-storno"' not in html
    html = client.get(base + str(other["id"])).get_data(as_text=True)
    assert 'id="storno-pending"' not in html and 'id="create-storno"' in html


def test_storno_page_links_the_original_and_shows_it_cancelled(client, company, api):
    ids = catalogue(api)
    original = _document(api, ids, "ORIG-2")
    storno = _document(api, ids, "STORNO-2", invoice_type=1, referred_invoice_number="ORIG-2")
    base = signed_in(client, company, "incomes/")
    html = client.get(base + str(storno["id"])).get_data(as_text=True)
    assert f'href="{base}{original["id"]}"' in html
    section = html.split('id="storno-original"')[1].split("</div>")[0]
    assert "badge--strong" in section


def test_cancelling_a_storno_says_its_original_stays_cancelled(client, company, api):
    ids = catalogue(api)
    _document(api, ids, "ORIG-4", type=2)
    storno = _document(api, ids, "STORNO-4", type=2, invoice_type=1,
                       referred_invoice_number="ORIG-4")
    base = signed_in(client, company, "incomes/")
    text = client.get(f'{base}{storno["id"]}/cancel').get_data(as_text=True)
    note = text.split('id="cancel-storno-note"')[1].split("</p>")[0]
    assert "ORIG-4, which this storno reverses, stays cancelled" in note
    client.post(f'{base}{storno["id"]}/cancel',
                data={"csrf_token": csrf_token(text), "is_cancelled": "1"})
    assert income(api, storno["id"])["is_cancelled"] is True
    html = client.get(base + str(storno["id"])).get_data(as_text=True)
    section = html.split('id="storno-original"')[1].split("</div>")[0]
    assert "This storno is cancelled, so it reverses nothing" in section
    assert "Cancelled" in section and "Reversed" not in section
    assert "stays cancelled" in section


def test_cancelling_a_storno_that_reverses_nothing_says_nothing_of_an_original(client,
                                                                                company, api):
    ids = catalogue(api)
    storno = _document(api, ids, "STORNO-5", type=2, invoice_type=1,
                       referred_invoice_number="NOPE-77")
    base = signed_in(client, company, "incomes/")
    text = client.get(f'{base}{storno["id"]}/cancel').get_data(as_text=True)
    assert "Cancel STORNO-5?" in text and 'id="cancel-storno-note"' not in text


def test_storno_of_a_missing_number_carries_the_notice(client, company, api):
    ids = catalogue(api)
    storno = _document(api, ids, "STORNO-3", invoice_type=1, referred_invoice_number="NOPE-9")
    base = signed_in(client, company, "incomes/")
    html = client.get(base + str(storno["id"])).get_data(as_text=True)
    assert 'id="storno-missing"' in html and "NOPE-9" in html


def test_file_link_serves_the_file_from_this_origin_never_the_signed_link(client, company,
                                                                          api):
    ids = catalogue(api)
    created = _document(api, ids, invoice_image={
        "filename": "szamla.pdf", "content": base64.b64encode(PDF).decode()})
    base = signed_in(client, company, "incomes/")
    html = client.get(base + str(created["id"])).get_data(as_text=True)
    assert f'{base}{created["id"]}/file' in html
    response = client.get(f'{base}{created["id"]}/file')
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.get_data() == PDF and "Location" not in response.headers
    assert response.headers["Content-Disposition"].startswith('inline; filename="szamla.pdf"')


def test_no_file_means_no_link_and_a_404(client, company, api):
    created = make_income(api)
    base = signed_in(client, company, "incomes/")
    assert "/file" not in client.get(base + str(created["id"])).get_data(as_text=True)
    assert client.get(f'{base}{created["id"]}/file').status_code == 404


def test_cancelling_asks_first_then_recalculates_payments(client, company, api, sandbox_log):
    created = make_income(api, type=2, payments=[{"amount": "500.00"}])
    base = signed_in(client, company, "incomes/")
    page = client.get(f'{base}{created["id"]}/cancel')
    text = page.get_data(as_text=True)
    assert "recalculated" in text or "újraszámol" in text
    assert sandbox_log.entries(company_id=company.id, method="PATCH") == []
    client.post(f'{base}{created["id"]}/cancel',
                data={"csrf_token": csrf_token(text), "is_cancelled": "1"})
    after = income(api, created["id"])
    assert after["is_cancelled"] is True and after["paid_amount"] == "0.00"
    assert [e["body"] for e in sandbox_log.entries(company_id=company.id, method="PATCH")] == [
        {"is_cancelled": True}]


def test_processed_documents_offer_no_cancel(client, company, api, sandbox_log):
    created = make_income(api, type=2)
    set_state(api, created["id"], is_processed=True)
    base = signed_in(client, company, "incomes/")
    assert "/cancel" not in client.get(base + str(created["id"])).get_data(as_text=True)
    response = client.get(f'{base}{created["id"]}/cancel')
    assert response.status_code == 303
    assert sandbox_log.entries(company_id=company.id, method="PATCH") == []
