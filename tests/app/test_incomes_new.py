"""New accounting documents and stornos: all or nothing, once, every refusal on its field."""
from __future__ import annotations

import io
import threading
import time
from collections import defaultdict
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.forms.totals import Rules
from app.incomes.flow import item_sums, storno_initial
from app.numbers import company_today
from tests.app.conftest import signed_in
from tests.app.expenses_helpers import FAKE_PDF
from tests.app.incomes_helpers import (
    BrowserForm,
    catalogue,
    creates,
    income,
    make_income,
    page_form,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def _filled(client, path: str, ids, number: str = "BIZ-NEW-1") -> BrowserForm:
    form = page_form(client, path)
    form.set("invoice_number", number).set("partner_name", "Alfa Kft.")
    form.set("assignments-0-revenue_type", str(ids.revenue_types[0]))
    form.set("assignments-0-net_amount", "1 000,00").set("assignments-0-gross_amount", "1270")
    return form


def _listed(api) -> list[dict]:
    return api.get("/1/incomes", params={"page_size": 100}).json()["results"]["incomes"]


def test_a_new_document_is_created_with_its_assignment_and_items(client, company, api):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids)
    form.pairs += [("items-0-name", "Tanácsadás"), ("items-0-quantity", "2"),
                   ("items-0-unit_price", "500"), ("items-0-vat_percent", "27")]
    response = client.post(base + "new", data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    created = income(api, int(response.headers["Location"].split("/")[-1].split("?")[0]))
    assert created["invoice_number"] == "BIZ-NEW-1" and created["type"] == 2
    assert created["net_amount"] == "1000.00" and created["gross_amount"] == "1270.00"
    assert created["items"][0]["vat_percent"] == 27.0
    assert created["assignments"][0]["revenue_type"]["id"] == ids.revenue_types[0]


def test_at_least_one_assignment_is_required_before_sending(client, company, api, sandbox_log):
    catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = page_form(client, base + "new").set("invoice_number", "X-1")
    response = client.post(base + "new", data=form.data(), headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "at least one row" in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def test_a_foreign_currency_without_rate_is_stopped_before_sending(client, company, api,
                                                                   sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    page = client.get(base + "new", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "data-rate-hint" in page and "Required when the currency is not HUF" in page
    form = _filled(client, base + "new", ids).set("currency", str(ids.currencies["EUR"]))
    response = client.post(base + "new", data=form.data(), headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "actual exchange rate" in html.split('id="exchange_rate"')[1].split("</div>")[0]
    assert 'value="BIZ-NEW-1"' in html
    assert creates(sandbox_log, company.id) == []


def test_a_eur_document_with_its_rate_is_created(client, company, api):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids).set("currency", str(ids.currencies["EUR"]))
    response = client.post(base + "new", data=form.set("exchange_rate", "395,2").data())
    assert response.status_code == 303
    created = _listed(api)[0]
    assert created["currency"] == ids.currencies["EUR"]
    assert created["exchange_rate"] == "395.200000"


def test_a_duplicate_number_links_to_the_existing_income(client, company, api):
    ids = catalogue(api)
    existing = make_income(api, type=2, invoice_number="DUP-1")
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids, "DUP-1").set("note", "kept")
    response = client.post(base + "new", data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    field = html.split('id="invoice_number"')[1].split("</div>")[0]
    assert f'href="{base}{existing["id"]}"' in field
    assert "kept" in html and len(_listed(api)) == 1


def test_a_double_submit_creates_one_document(client, company, api, sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids).data()
    first = client.post(base + "new", data=data)
    second = client.post(base + "new", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(creates(sandbox_log, company.id)) == 1 and len(_listed(api)) == 1


def test_a_refused_create_can_be_sent_again_with_the_same_form(client, company, api):
    ids = catalogue(api)
    make_income(api, type=2, invoice_number="TAKEN")
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids, "TAKEN").data()
    assert client.post(base + "new", data=data).status_code == 400
    data["invoice_number"] = ["FREE"]
    assert client.post(base + "new", data=data).status_code == 303
    assert {i["invoice_number"] for i in _listed(api)} == {"TAKEN", "FREE"}


def test_nothing_is_stored_when_one_assignment_is_refused(client, company, api):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids)
    form.pairs += [("assignments-1-revenue_type", "999999"), ("assignments-1-net_amount", "1"),
                   ("assignments-1-gross_amount", "1")]
    response = client.post(base + "new", data=form.data())
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "does not exist" in html.split('name="assignments-1-revenue_type"')[1].split("</td>")[0]
    assert _listed(api) == []


def test_the_invoice_image_is_uploaded_with_the_document(client, company, api):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids).data()
    data["invoice_image"] = (io.BytesIO(PNG), "scan.png")
    response = client.post(base + "new", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    created = income(api, _listed(api)[0]["id"])
    assert created["has_artifact"] is True


def test_a_file_that_is_not_a_document_is_refused_before_sending(client, company, api,
                                                                sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids).data()
    data["invoice_image"] = (io.BytesIO(b"MZ\x90\x00 not a pdf"), "invoice.pdf")
    response = client.post(base + "new", data=data, content_type="multipart/form-data",
                           headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert "PDF, JPEG, PNG or XML" in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def test_a_storno_is_prefilled_and_cancels_the_original(client, company, api):
    ids = catalogue(api)
    original = make_income(api, type=2, invoice_number="ORIG-9", partner_name="Béta Zrt.",
                           payments=[{"amount": "1270.00"}])
    base = signed_in(client, company, "incomes/")
    form = page_form(client, f"{base}new?storno_of={original['id']}")
    assert form.get("referred_invoice_number") == "ORIG-9"
    assert form.get("partner_name") == "Béta Zrt."
    assert form.get("assignments-0-gross_amount") in ("-1270.00", "-1270,00")
    assert form.get("assignments-0-revenue_type") == str(ids.revenue_types[0])
    response = client.post(f"{base}new?storno_of={original['id']}",
                           data=form.set("invoice_number", "STORNO-9").data(),
                           follow_redirects=True)
    html = response.get_data(as_text=True)
    assert 'id="storno-original"' in html and "badge--strong" in html
    after = income(api, original["id"])
    assert after["is_cancelled"] is True and after["paid_amount"] == "0.00"


def test_a_storno_is_issued_today_with_the_originals_fulfilment_date(client, company, api):
    original = make_income(api, type=2, invoice_number="ORIG-F", issued_at="2026-10-15",
                           fulfilled_at="2026-10-15")
    base = signed_in(client, company, "incomes/")
    form = page_form(client, f"{base}new?storno_of={original['id']}")
    shown = {name: datetime.strptime(form.get(name), "%b %d, %Y").date()  # the English page
             for name in ("fulfilled_at", "issued_at")}
    assert shown == {"fulfilled_at": date(2026, 10, 15), "issued_at": company_today()}


def test_a_second_storno_of_a_document_is_refused_on_the_referred_number(client, company, api,
                                                                         sandbox_log):
    original = make_income(api, type=2, invoice_number="ORIG-2X")
    base = signed_in(client, company, "incomes/")
    path = f"{base}new?storno_of={original['id']}"
    first = page_form(client, path).set("invoice_number", "STORNO-2X-1")
    assert client.post(path, data=first.data()).status_code == 303
    response = client.get(path, headers={"Accept-Language": "en"})
    assert "A storno already reverses ORIG-2X" in response.get_data(as_text=True)
    second = page_form(client, path).set("invoice_number", "STORNO-2X-2")
    sandbox_log.reset()
    with_another_error = client.post(path, data=second.set("due_at", "2026-13-45").data(),
                                     headers={"Accept-Language": "en"})
    assert "a second one would reverse it twice" in with_another_error.get_data(as_text=True)
    second.set("due_at", "")
    refused = client.post(path, data=second.data(), headers={"Accept-Language": "en"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400
    field = html.split('id="referred_invoice_number"')[1].split("</div>")[0]
    assert "a second one would reverse it twice" in field
    assert 'value="STORNO-2X-2"' in html
    assert creates(sandbox_log, company.id) == []


def test_a_storno_of_a_number_that_does_not_exist_says_so(client, company, api):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids, "STORNO-X").set("referred_invoice_number", "LATER-1")
    form.set("assignments-0-net_amount", "-1 000,00").set("assignments-0-gross_amount", "-1270")
    response = client.post(base + "new", data=form.data(), follow_redirects=True)
    html = response.get_data(as_text=True)
    assert 'id="storno-missing"' in html and "LATER-1" in html
    assert _listed(api)[0]["invoice_type"] == 1


def test_header_totals_default_to_the_sum_of_the_rows(client, company, api, sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _filled(client, base + "new", ids).set("net_amount").set("gross_amount")
    form.pairs += [("assignments-1-revenue_type", str(ids.revenue_types[1])),
                   ("assignments-1-net_amount", "500"), ("assignments-1-gross_amount", "635")]
    assert client.post(base + "new", data=form.data()).status_code == 303
    body = creates(sandbox_log, company.id)[0]["body"]
    assert body["net_amount"] == "1500.00" and body["gross_amount"] == "1905.00"


def test_two_submits_at_the_same_time_create_one_document(app, client, company, api, faults,
                                                          sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids).data()
    faults.add(path="/2/incomes/create/", method="POST", kind="latency", latency_ms=700)
    other = app.test_client()
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    other.set_cookie(cookie.key, cookie.value)
    results = {}

    def send(name, who):
        results[name] = who.post(base + "new", data=data)

    threads = [threading.Thread(target=send, args=("a", client)),
               threading.Thread(target=send, args=("b", other))]
    for thread in threads:
        thread.start()
        time.sleep(0.15)
    for thread in threads:
        thread.join(timeout=20)
    assert {r.status_code for r in results.values()} == {303}
    assert results["a"].headers["Location"] == results["b"].headers["Location"]
    assert len(creates(sandbox_log, company.id)) == 1 and len(_listed(api)) == 1


def test_an_unanswered_create_keeps_the_form_and_can_be_sent_again(client, company, api,
                                                                   faults):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", ids).data()
    faults.add(path="/2/incomes/create/", method="POST", kind="status", status=503, count=1)
    response = client.post(base + "new", data=data, headers={"Accept-Language": "en"})
    assert response.status_code == 503
    assert "did not confirm the request" in response.get_data(as_text=True)
    assert 'value="BIZ-NEW-1"' in response.get_data(as_text=True)
    assert client.post(base + "new", data=data).status_code == 303
    assert len(_listed(api)) == 1


def test_a_storno_is_prefilled_with_plain_negated_amounts_and_zero_not_minus_zero():
    original = {"invoice_number": "Z-1", "net_amount": "0.00", "vat_amount": "0",
                "gross_amount": "1E+3", "assignments": [{"net_amount": "0.00"}]}
    initial = storno_initial(original, {}, {})
    assert (initial["net_amount"], initial["vat_amount"]) == ("0.00", "0")
    assert initial["gross_amount"] == "-1000"
    assert initial["assignments"][0]["net_amount"] == "0.00"


@pytest.mark.parametrize("name, content, reason", [
    ("empty.pdf", b"", "The file is empty."),
    ("fake.pdf", FAKE_PDF, "This file is not a real PDF: its content is not a PDF, JPEG, PNG or "
                           "XML document, whatever its name says."),
])
def test_the_invoice_image_is_refused_in_the_words_of_the_expense_upload(
        client, company, api, sandbox_log, name, content, reason):
    english = {"Accept-Language": "en"}
    base = signed_in(client, company, "incomes/")
    data = _filled(client, base + "new", catalogue(api)).data()
    data["invoice_image"] = (io.BytesIO(content), name)
    response = client.post(base + "new", data=data, content_type="multipart/form-data",
                           headers=english)
    assert response.status_code == 400 and reason in response.get_data(as_text=True)
    path = signed_in(client, company, "expenses/") + "new"
    data = page_form(client, path).data()
    data["files"] = (io.BytesIO(content), name)
    response = client.post(path, data=data, content_type="multipart/form-data", headers=english)
    assert response.status_code == 400 and reason in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def _with_item(client, base: str, ids, number: str, quantity: str, price: str) -> BrowserForm:
    form = _filled(client, base + "new", ids, number)
    form.pairs += [("items-0-name", "Tanácsadás"), ("items-0-quantity", quantity),
                   ("items-0-unit_price", price), ("items-0-vat_percent", "27")]
    return form


def test_line_items_that_do_not_add_up_to_the_document_are_refused_on_its_totals(
        client, company, api, sandbox_log):
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _with_item(client, base, ids, "BIZ-ITEMS-1", "3", "500")
    response = client.post(base + "new", data=form.data(), headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True).replace("\u00a0", " ")
    assert response.status_code == 400
    assert "The line items add up to a net of HUF 1,500." in html
    assert "The line items add up to a VAT of HUF 405." in html
    assert creates(sandbox_log, company.id) == []
    zero = _with_item(client, base, ids, "BIZ-ITEMS-1", "-0", "500")
    assert client.post(base + "new", data=zero.data()).status_code == 400
    fixed = _with_item(client, base, ids, "BIZ-ITEMS-1", "2", "500")
    assert client.post(base + "new", data=fixed.data()).status_code == 303


LINES = st.lists(st.tuples(st.decimals(Decimal("0.0001"), Decimal(1000), places=4),
                           st.decimals(Decimal(0), Decimal(10 ** 6), places=2),
                           st.sampled_from(["0", "5", "18", "27"])), min_size=1, max_size=8)
# The smallest unit of a net (amounts) and of a VAT (forint VAT is whole), worked out here.
UNITS = {"HUF": (Decimal("0.01"), Decimal(1)), "EUR": (Decimal("0.01"), Decimal("0.01"))}


@settings(max_examples=300, deadline=None)
@given(lines=LINES, currency=st.sampled_from(["HUF", "EUR"]))
def test_item_sums_round_each_line_and_an_invoice_rounded_per_vat_rate_is_within_one_unit_a_line(
        lines, currency):
    # items_problems refuses a header further than one unit a line from item_sums: an invoice
    # that rounds its VAT once per rate is never refused.
    net_unit, vat_unit = UNITS[currency]
    items = [{"quantity": q, "unit_price": p, "vat_percent": r} for q, p, r in lines]
    sums = item_sums(items, Rules(currency))
    nets = [(q * p).quantize(net_unit, rounding=ROUND_HALF_UP) for q, p, _r in lines]
    assert sums["net_amount"] == sum(nets)
    assert sums["vat_amount"] == sum((n * Decimal(r) / 100).quantize(vat_unit,
                                                                     rounding=ROUND_HALF_UP)
                                     for n, (_q, _p, r) in zip(nets, lines, strict=True))
    by_rate = defaultdict(Decimal)
    for net, (_q, _p, rate) in zip(nets, lines, strict=True):
        by_rate[rate] += net
    per_rate_vat = sum((net * Decimal(rate) / 100).quantize(vat_unit, rounding=ROUND_HALF_UP)
                       for rate, net in by_rate.items())
    assert abs(per_rate_vat - sums["vat_amount"]) <= vat_unit * len(items)
    assert abs(sum(q * p for q, p, _r in lines) - sums["net_amount"]) <= net_unit * len(items)
    assert sums["net_amount"] == sum(by_rate.values())


def test_a_forint_document_whose_item_vat_is_whole_forints_is_accepted(client, company, api):
    # 101 Ft at 27%: 27 Ft VAT on a forint invoice (27,27 read as fillér would be refused).
    ids = catalogue(api)
    base = signed_in(client, company, "incomes/")
    form = _with_item(client, base, ids, "BIZ-ITEMS-2", "1", "101")
    form.set("assignments-0-net_amount", "101").set("assignments-0-gross_amount", "128")
    response = client.post(base + "new", data=form.data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
