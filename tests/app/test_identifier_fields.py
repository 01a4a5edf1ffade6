"""Identifier fields through Bookdesk's forms: a bad number is a field message that keeps the
input and sends nothing; a good one is sent in the API's form and shown with separators; a
stored value the check would refuse still lets the record be edited."""
from __future__ import annotations

from tests.app.conftest import signed_in
from tests.app.incomes_helpers import make_income, page_form, patches
from tests.app.taxes_support import TAX_NUMBER, cell, grid, rows, writes
from tests.app.test_partners_pages import create_form, creates, form_data, make_partner

IBAN = "HU42 1177 3016 1111 1018 0000 0000"


def test_a_tax_number_with_a_wrong_check_digit_is_refused_on_its_field(client, company,
                                                                       sandbox_log):
    base = signed_in(client, company, "partners/")
    client.get("/lang/hu")
    sandbox_log.reset()
    response = create_form(client, base, name="Hibás Kft.", tax_number="12345677-2-42",
                           is_customer="y")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Az adószám ellenőrző számjegye (a 8. számjegy) hibás." in html
    assert 'value="12345677-2-42"' in html
    assert creates(sandbox_log, company) == []


def test_a_bad_county_code_and_a_bad_account_are_named_in_english(client, company, sandbox_log):
    base = signed_in(client, company, "partners/")
    client.get("/lang/en")
    response = create_form(client, base, name="Hibás Kft.", tax_number="12345676-2-21",
                           default_account_number="11773016-11111019", is_customer="y")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Unknown county code 21 (the last two digits of the tax number)." in html
    assert "The check digit of the bank account number (its last digit) is wrong." in html
    assert creates(sandbox_log, company) == []


def test_good_identifiers_are_sent_in_the_api_form(client, company, sandbox_log):
    base = signed_in(client, company, "partners/")
    response = create_form(client, base, name="Jó Kft.", tax_number="12345676 2 42",
                           eu_tax_number="hu 12345676", default_account_number=IBAN,
                           is_customer="y")
    assert response.status_code == 303
    [sent] = creates(sandbox_log, company)
    assert sent["body"]["tax_number"] == "12345676242"
    assert sent["body"]["eu_tax_number"] == "HU12345676"
    assert sent["body"]["default_account_number"] == "HU42117730161111101800000000"
    listing = client.get(base + "?q=J%C3%B3").get_data(as_text=True)
    assert "12345676-2-42" in listing and IBAN in listing


def test_a_stored_number_the_check_refuses_does_not_block_editing(client, company, api,
                                                                  sandbox_log):
    partner = make_partner(api, name="Régi Kft.", default_account_number="11712345-12345678")
    base = signed_in(client, company, "partners/")
    path = f"{base}{partner['id']}/"
    html = client.get(path).get_data(as_text=True)
    response = client.post(path, data=form_data(
        html, name="Régi és Új Kft.", default_account_number="11712345-12345678",
        is_customer="y"))
    assert response.status_code == 303
    sent = sandbox_log.entries(company_id=company.id, method="PATCH")
    assert [entry["body"] for entry in sent] == [{"name": "Régi és Új Kft."}]


def test_income_partner_tax_number_is_checked_and_sent_compact(client, company, api,
                                                                sandbox_log):
    created = make_income(api, type=2)
    base = signed_in(client, company, "incomes/")
    client.get("/lang/hu")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path)
    refused = client.post(path, data=form.set("partner_tax_number", "12345676-7-42").data())
    assert refused.status_code == 400
    assert "Az adószám 9. számjegye (az áfakód) 1 és 5 közötti, nem 7." in refused.get_data(
        as_text=True)
    assert patches(sandbox_log, company.id) == []
    form = page_form(client, path)
    saved = client.post(path, data=form.set("partner_tax_number", "12345676-2-42")
                        .set("partner_account_number", "11773016 11111018").data())
    assert saved.status_code == 303
    assert patches(sandbox_log, company.id) == [{"partner_tax_number": "12345676242",
                                                 "partner_account_number": "11773016-11111018"}]
    again = page_form(client, path)
    assert again.get("partner_tax_number") == "12345676-2-42"


def test_salary_grid_refuses_a_bad_tax_id_and_account_before_sending(client, company,
                                                                      sandbox_log):
    base = signed_in(client, company, "salaries/")
    client.get("/lang/hu")
    item = {"month": "2024-03", "amount": "1000", "name": "Kovács Anna",
            "account_number": "11773016-11111018", "tax_number": "8412345674"}
    bad_account = {**item, "account_number": "1177301611111018000", "tax_number": TAX_NUMBER}
    response = client.post(base + "new", data={**grid(client, base + "new"),
                                               **rows(item, bad_account)})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "ellenőrző számjegye (az utolsó) hibás" in cell(html, "0", "tax_number")
    assert "16 vagy 24 számjegyű; ez 19 számjegyű" in cell(html, "1", "account_number")
    assert writes(sandbox_log, company.id, "/2/salaries/create/") == []


def test_an_income_with_an_old_bad_account_can_still_be_edited_and_reversed(client, company,
                                                                            api, sandbox_log):
    created = make_income(api, type=2, invoice_number="OLD-1", partner_tax_number="12345678242",
                          partner_account_number="11712345-12345678")
    base = signed_in(client, company, "incomes/")
    path = f"{base}{created['id']}/edit"
    saved = client.post(path, data=page_form(client, path).set("note", "új").data())
    assert saved.status_code == 303
    assert patches(sandbox_log, company.id) == [{"note": "új"}]
    storno = f"{base}new?storno_of={created['id']}"
    made = client.post(storno, data=page_form(client, storno).set("invoice_number", "S-OLD-1")
                       .data())
    assert made.status_code == 303, made.get_data(as_text=True)[:2000]
    [sent] = sandbox_log.entries(company_id=company.id, method="POST", path="/2/incomes/create")
    assert sent["body"]["partner_tax_number"] == "12345678242"


def test_a_changed_number_is_checked_even_when_the_old_one_was_bad(client, company, api,
                                                                    sandbox_log):
    created = make_income(api, type=2, partner_account_number="11712345-12345678")
    base = signed_in(client, company, "incomes/")
    path = f"{base}{created['id']}/edit"
    form = page_form(client, path).set("partner_account_number", "11712345-12345679")
    assert client.post(path, data=form.data()).status_code == 400
    assert patches(sandbox_log, company.id) == []
