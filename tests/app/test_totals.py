"""Totals that add up (app/forms/totals.py): the live computation while typing, and the same
checks on submit, on the new-document, income edit and expense edit forms."""
from __future__ import annotations

import json
from decimal import Decimal

from app.forms.totals import rates_by_id
from tests.app import expenses_helpers as exp
from tests.app.conftest import signed_in
from tests.app.incomes_helpers import (
    BrowserForm,
    catalogue,
    creates,
    make_income,
    page_form,
    patches,
)

EN = {"Accept-Language": "en"}


def vat_id(api, name: str, kind: str = "revenue") -> int:
    """The id of the company's VAT category called `name` (e.g. "27%") of one type."""
    return next(item["id"] for item in api.get("/2/accounting/vat-categories/").json()
                if item["name"] == name and item["type"] == kind)


def live(client, path: str, form: BrowserForm) -> dict:
    """Post the form to the totals endpoint as htmx does; the HX-Trigger answer."""
    response = client.post(path, data=form.data(), headers={"HX-Request": "true", **EN})
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return json.loads(response.headers["HX-Trigger"])["totals"]


def refused(client, path: str, form: BrowserForm) -> str:
    """Submit the form; it must come back refused (400); its html."""
    response = client.post(path, data=form.data(), headers=EN)
    assert response.status_code == 400, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def cell(html: str, input_id: str, end: str = "</td>") -> str:
    """The markup of one input and its messages."""
    return html.split(f'id="{input_id}"')[1].split(end)[0]


def new_form(client, base: str, api, net: str = "1000", vat: str = "27%") -> BrowserForm:
    """The new-document form with a number, a partner, one row with net and a VAT category."""
    ids = catalogue(api)
    form = page_form(client, base + "new").set("invoice_number", "OSSZ-1")
    form.set("partner_name", "Alfa Kft.").set("assignments-0-revenue_type",
                                              str(ids.revenue_types[0]))
    form.set("assignments-0-vat", str(vat_id(api, vat))).set("assignments-0-net_amount", net)
    return form


def test_the_live_request_computes_vat_gross_and_the_header_from_net_and_rate(client, company,
                                                                              api, sandbox_log):
    base = signed_in(client, company, "incomes/")
    answer = live(client, base + "totals", new_form(client, base, api, net="1 000"))
    assert answer["values"] == {"assignments-0-vat_amount": "270.00",
                                "assignments-0-gross_amount": "1270.00",
                                "net_amount": "1000.00", "vat_amount": "270.00",
                                "gross_amount": "1270.00"}
    assert answer["was"]["assignments-0-vat_amount"] == ""  # a cell typed in since stays
    assert not any(answer["errors"].values())
    assert creates(sandbox_log, company.id) == []


def test_forints_are_rounded_to_whole_and_euros_to_cents(client, company, api):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api, net="1001")
    huf = live(client, base + "totals", form)["values"]
    assert huf["assignments-0-vat_amount"] == "270.00"  # 270.27 Ft, whole forints
    assert huf["assignments-0-gross_amount"] == "1271.00"
    euro = catalogue(api).currencies["EUR"]
    eur = live(client, base + "totals", form.set("currency", str(euro)))["values"]
    assert eur["assignments-0-vat_amount"] == "270.27"
    assert eur["assignments-0-gross_amount"] == "1271.27"


def test_a_typed_vat_is_kept_and_flagged_while_a_computed_one_follows_net(client, company, api):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api, net="2000").set("assignments-0-vat_amount", "300")
    answer = live(client, base + "totals", form)
    assert "assignments-0-vat_amount" not in answer["values"]
    assert "At 27% the VAT on" in answer["errors"]["assignments-0-vat_amount"]
    form.set("assignments-0-vat_amount", "270.00").set(
        "totals_auto", json.dumps({"assignments-0-vat_amount": "270.00"}))
    again = live(client, base + "totals", form)
    assert again["values"]["assignments-0-vat_amount"] == "540.00"
    assert again["errors"]["assignments-0-vat_amount"] == ""


def test_a_vat_that_disagrees_with_the_rate_is_refused_on_its_field_and_nothing_is_sent(
        client, company, api, sandbox_log):
    base = signed_in(client, company, "incomes/")
    partner = api.post("/2/partners/create/", json={"name": "Kiválasztott Kft.",
                                                     "is_customer": True}).json()
    form = new_form(client, base, api).set("assignments-0-vat_amount", "300")
    form.set("assignments-0-gross_amount", "1300").set("note", "megjegyzés marad")
    form.set("partner_id", str(partner["id"]))
    form.pairs += [("items-0-name", "Tanácsadás"), ("items-0-quantity", "2"),
                   ("items-0-unit_price", "500"), ("items-0-vat_percent", "27")]
    html = refused(client, base + "new", form)
    assert "At 27% the VAT on HUF\xa01,000 is HUF\xa0270, not HUF\xa0300." in cell(
        html, "assignments-0-vat_amount")
    assert creates(sandbox_log, company.id) == []
    kept = BrowserForm(html)
    assert kept.get("partner_name") == "Alfa Kft." and kept.get("note") == "megjegyzés marad"
    assert kept.get("items-0-name") == "Tanácsadás" and kept.get("items-0-unit_price") == "500"
    assert kept.get("assignments-0-vat_amount") == "300"
    assert kept.get("partner_id") == str(partner["id"])
    assert kept.get("assignments-0-net_amount") == "1000"


def test_net_plus_vat_other_than_gross_is_refused_on_gross(client, company, api, sandbox_log):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api).set("assignments-0-vat_amount", "270")
    form.set("assignments-0-gross_amount", "1370")
    html = refused(client, base + "new", form)
    assert "Net + VAT is" in cell(html, "assignments-0-gross_amount")
    assert creates(sandbox_log, company.id) == []


def test_a_header_that_differs_from_its_rows_is_refused(client, company, api, sandbox_log):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api).set("assignments-0-vat_amount", "270")
    form.set("assignments-0-gross_amount", "1270").set("net_amount", "2000")
    form.set("vat_amount", "540").set("gross_amount", "2540")
    html = refused(client, base + "new", form)
    field = cell(html, "net_amount", "</div>")
    assert "The rows below add up to" in field
    assert creates(sandbox_log, company.id) == []


def test_a_negative_amount_on_an_ordinary_document_is_refused(client, company, api,
                                                              sandbox_log):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api, net="-1000").set("assignments-0-gross_amount", "-1270")
    html = refused(client, base + "new", form)
    assert "Negative amounts belong on a storno only" in cell(html, "assignments-0-net_amount")
    assert 'value="-1000"' in html
    assert creates(sandbox_log, company.id) == []
    answer = live(client, base + "totals", form)
    assert "Negative amounts" in answer["errors"]["assignments-0-net_amount"]


def test_a_storno_with_positive_amounts_is_refused_and_negative_ones_are_sent(
        client, company, api, sandbox_log):
    base = signed_in(client, company, "incomes/")
    form = new_form(client, base, api).set("referred_invoice_number", "EREDETI-1")
    form.set("assignments-0-gross_amount", "1270")
    response = client.post(base + "new", data=form.data(), headers=EN)
    assert response.status_code == 400
    assert "A storno reverses the original" in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []
    answer = live(client, base + "totals", form)
    assert "A storno reverses" in answer["errors"]["assignments-0-net_amount"]
    form.set("assignments-0-net_amount", "-1000").set("assignments-0-gross_amount", "-1270")
    assert client.post(base + "new", data=form.data(), headers=EN).status_code == 303
    [sent] = creates(sandbox_log, company.id)
    assert sent["body"]["invoice_type"] == 1
    assert sent["body"]["assignments"][0]["gross_amount"] == "-1270.00"


def edit_page(client, company, api, vat: str, gross: str) -> tuple[str, BrowserForm]:
    """An accounting document with one 27% row of net 1000; its edit path and form."""
    created = make_income(api, assignments=[{
        "revenue_type": catalogue(api).revenue_types[0], "net_amount": "1000",
        "vat_amount": vat, "gross_amount": gross, "vat": vat_id(api, "27%")}])
    path = f"{signed_in(client, company, 'incomes/')}{created['id']}/edit"
    return path, page_form(client, path)


def test_an_income_edit_that_breaks_its_row_is_refused_before_the_patch(client, company, api,
                                                                         sandbox_log):
    path, form = edit_page(client, company, api, "270", "1270")
    form.set("assignments-0-net_amount", "2000").set("assignments-0-vat_amount", "280")
    sandbox_log.reset()
    html = refused(client, path, form)
    assert "At 27% the VAT on" in cell(html, "assignments-0-vat_amount")
    assert 'value="280"' in cell(html, "assignments-0-vat_amount")
    assert patches(sandbox_log, company.id) == []


def test_a_vat_and_gross_the_page_computed_follow_net_on_submit_too(client, company, api,
                                                                    sandbox_log):
    path, form = edit_page(client, company, api, "270", "1270")
    sandbox_log.reset()
    response = client.post(path, data=form.set("assignments-0-net_amount", "2000").data())
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    [body] = patches(sandbox_log, company.id)
    row = body["assignments"][0]
    assert (row["net_amount"], row["vat_amount"], row["gross_amount"]) == (
        "2000.00", "540.00", "2540.00")
    assert (body["net_amount"], body["gross_amount"]) == ("2000.00", "2540.00")


def test_a_form_refused_for_another_field_shows_the_vat_and_gross_that_followed_net(
        client, company, api, sandbox_log):
    path, form = edit_page(client, company, api, "270", "1270")
    form.set("assignments-0-net_amount", "2000").set("due_at", "2026-13-45")
    sandbox_log.reset()
    html = refused(client, path, form)
    assert 'value="540.00"' in cell(html, "assignments-0-vat_amount")
    assert 'value="2540.00"' in cell(html, "assignments-0-gross_amount")
    assert 'value="2540.00"' in html.split('id="gross_amount"')[1].split(">")[0]
    assert patches(sandbox_log, company.id) == []


def test_a_computed_gross_past_twelve_digits_is_refused_on_its_cell_before_sending(
        client, company, api, sandbox_log):
    path, form = edit_page(client, company, api, "270", "1270")
    form.set("assignments-0-net_amount", "999999999999")
    sandbox_log.reset()
    html = refused(client, path, form)
    gross = cell(html, "assignments-0-gross_amount")
    assert 'value="1269999999999.00"' in gross and "at most 12 digits" in gross
    assert patches(sandbox_log, company.id) == []


def test_the_live_answer_flags_a_computed_gross_past_twelve_digits_as_the_submit_does(
        client, company, api):
    base = signed_in(client, company, "incomes/")
    answer = live(client, base + "totals", new_form(client, base, api, net="999999999999"))
    assert answer["values"]["assignments-0-gross_amount"] == "1269999999999.00"
    assert "at most 12 digits" in answer["errors"]["assignments-0-gross_amount"]
    assert "at most 12 digits" in answer["errors"]["gross_amount"]


def test_an_edit_that_leaves_the_amounts_alone_is_not_held_to_them(client, company, api,
                                                                   sandbox_log):
    path, form = edit_page(client, company, api, "300", "1300")
    form.set("note", "csak megjegyzés")
    sandbox_log.reset()
    assert client.post(path, data=form.data(), headers=EN).status_code == 303
    assert patches(sandbox_log, company.id) == [{"note": "csak megjegyzés"}]


def test_an_expense_row_that_does_not_add_up_is_refused_before_the_patch(client, company, api,
                                                                         sandbox_log):
    ids = exp.catalogue(api)
    created = exp.make_expense(api, ids)
    base = signed_in(client, company, "expenses/")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path).set("assignments-0-gross_amount", "1290")
    sandbox_log.reset()
    html = refused(client, path, form)
    assert "Net + VAT is" in cell(html, "assignments-0-gross_amount")
    assert exp.patches(sandbox_log, company.id) == []
    income_base = f"/c/{company.id}/incomes/"
    answer = live(client, income_base + "totals", form.set("assignments-0-gross_amount", ""))
    assert answer["values"]["assignments-0-gross_amount"] == "1270.00"


def test_forms_carry_the_live_request_on_their_amounts(client, company, api):
    base = signed_in(client, company, "incomes/")
    html = client.get(base + "new").get_data(as_text=True)
    net = html.split('id="assignments-0-net_amount"')[0].rsplit("<input", 1)[1]
    assert f'hx-post="{base}totals"' in net and 'hx-trigger="input changed delay:300ms"' in net
    assert 'name="totals_context"' in html and "<script>" not in html


def test_on_an_edit_form_a_vat_and_gross_that_follow_net_keep_following_it(client, company,
                                                                            api, sandbox_log):
    path, form = edit_page(client, company, api, "270", "1270")
    assert set(json.loads(form.get("totals_auto"))) >= {
        "assignments-0-vat_amount", "assignments-0-gross_amount"}
    answer = live(client, f"/c/{company.id}/incomes/totals",
                  form.set("assignments-0-net_amount", "2000"))
    assert answer["values"]["assignments-0-vat_amount"] == "540.00"
    assert answer["values"]["assignments-0-gross_amount"] == "2540.00"
    assert not any(answer["errors"].values())
    assert patches(sandbox_log, company.id) == []


def test_on_an_edit_form_a_stored_vat_off_the_rate_is_kept_and_flagged(client, company, api):
    path, form = edit_page(client, company, api, "300", "1300")
    assert "assignments-0-vat_amount" not in json.loads(form.get("totals_auto"))
    answer = live(client, f"/c/{company.id}/incomes/totals",
                  form.set("assignments-0-net_amount", "2000"))
    assert "assignments-0-vat_amount" not in answer["values"]
    assert "At 27% the VAT on" in answer["errors"]["assignments-0-vat_amount"]


def test_vat_rates_are_read_exactly_and_a_category_without_a_readable_percent_is_left_out():
    catalogs = {"vat_categories": [
        {"id": 1, "percent": "27.00"}, {"id": 2, "percent": 5}, {"id": 3, "percent": None},
        {"id": 4, "percent": "NaN"}, {"id": 5, "percent": "sok"}, {"id": 6}, "not a category"]}
    assert rates_by_id(catalogs) == {1: Decimal("27.00"), 2: Decimal(5)}
    assert str(rates_by_id(catalogs)[1]) == "27.00"
