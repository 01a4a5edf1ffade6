"""Browser tests of the incomes pages: filter, detail, edit, assignments, EUR create, storno."""
from __future__ import annotations

import re

from tests.app.incomes_helpers import catalogue, creates, income, make_income, patches
from tests.conftest import create_company


def _incomes(page, company) -> str:
    return f"/c/{company.id}/incomes/"


def test_filter_the_list_keeps_the_state_in_the_url(signed_in_page, company, api):
    make_income(api, invoice_number="PAID-100", payments=[{"amount": "1270.00"}])
    make_income(api, invoice_number="OPEN-200")
    page = signed_in_page(company)
    page.goto(_incomes(page, company))
    page.select_option("#paid_status", "2")
    page.wait_for_url(re.compile(r"paid_status=2"))
    page.wait_for_selector("text=PAID-100")
    assert page.locator("text=OPEN-200").count() == 0
    page.reload()
    assert page.input_value("#paid_status") == "2"
    assert page.locator("text=OPEN-200").count() == 0
    page.bookdesk_log.assert_clean()


def test_open_a_detail_from_the_list(signed_in_page, company, api):
    ids = catalogue(api)
    created = make_income(api, type=2, invoice_number="DET-1", tags=[ids.tags[0]],
                          items=[{"name": "Tanácsadás", "quantity": "1", "unit_price": "1000",
                                  "vat_percent": 27}])
    page = signed_in_page(company)
    page.goto(_incomes(page, company))
    page.click("text=DET-1")
    page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
    assert page.inner_text("h1") == "DET-1"
    assert "Tanácsadás" in page.inner_text("#items")
    assert "27" in page.inner_text("#items")
    page.bookdesk_log.assert_clean()


def test_edit_and_save_a_note_and_tags(signed_in_page, company, api):
    ids = catalogue(api)
    created = make_income(api, type=2, note="régi")
    page = signed_in_page(company)
    page.goto(f"{_incomes(page, company)}{created['id']}/edit")
    page.fill("#note", "Ellenőrizve, rendben.")
    page.click("#tags summary")
    page.check(f"#tags input[value='{ids.tags[1]}']")
    page.check(f"#tags input[value='{ids.tags[2]}']")
    assert "Debrecen" in page.inner_text("#tags summary")
    page.click("#save")
    page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
    assert "Ellenőrizve, rendben." in page.inner_text(".note")
    saved = income(api, created["id"])
    assert saved["note"] == "Ellenőrizve, rendben."
    assert {t["id"] for t in saved["tags"]} == {ids.tags[1], ids.tags[2]}
    page.bookdesk_log.assert_clean()


def test_add_an_assignment_row(signed_in_page, company, api):
    ids = catalogue(api)
    created = make_income(api, type=2, net_amount="1000.00", gross_amount="1270.00")
    page = signed_in_page(company)
    page.goto(f"{_incomes(page, company)}{created['id']}/edit")
    page.fill("[name='assignments-0-net_amount']", "600")
    page.fill("[name='assignments-0-vat_amount']", "162")
    page.fill("[name='assignments-0-gross_amount']", "762")
    page.click("[data-add-row]")
    row = page.locator("tbody[data-rows] tr[data-row]").nth(1)
    row.locator("select[name$='-revenue_type']").select_option(str(ids.revenue_types[1]))
    row.locator("input[name$='-net_amount']").fill("400")
    row.locator("input[name$='-gross_amount']").fill("508")
    page.click("#save")
    page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
    assert page.locator("#assignments tbody tr").count() == 2
    assert [a["gross_amount"] for a in income(api, created["id"])["assignments"]] == [
        "762.00", "508.00"]
    page.bookdesk_log.assert_clean()


def test_create_an_accounting_document_in_eur_needs_the_rate(signed_in_page, company, api,
                                                              sandbox_log):
    ids = catalogue(api)
    page = signed_in_page(company)
    page.goto(f"{_incomes(page, company)}new")
    assert page.locator("[data-rate-hint]").is_hidden()
    page.fill("#invoice_number", "EUR-2025-001")
    page.fill("#partner_name", "Euro Partner GmbH")
    page.select_option("#currency", str(ids.currencies["EUR"]))
    assert page.locator("[data-rate-hint]").is_visible()
    assert page.locator("#exchange_rate").get_attribute("required") is not None
    page.select_option("[name='assignments-0-revenue_type']", str(ids.revenue_types[0]))
    page.fill("[name='assignments-0-net_amount']", "100")
    page.fill("[name='assignments-0-gross_amount']", "127")
    page.click("#create")
    page.wait_for_selector("#exchange_rate-client-error")
    assert creates(sandbox_log, company.id) == []
    page.fill("#exchange_rate", "395,20")
    page.click("#create")
    page.wait_for_url(re.compile(r"/incomes/\d+\?created=1$"))
    assert page.inner_text("h1") == "EUR-2025-001"
    assert "EUR" in page.inner_text(".income-summary")
    page.bookdesk_log.assert_clean()


def test_create_a_storno_and_see_the_original_cancelled(signed_in_page, company, api):
    original = make_income(api, type=2, invoice_number="ORIG-500",
                           payments=[{"amount": "1270.00"}])
    page = signed_in_page(company)
    page.goto(f"{_incomes(page, company)}{original['id']}")
    page.click("#create-storno")
    assert page.input_value("#referred_invoice_number") == "ORIG-500"
    page.fill("#invoice_number", "STORNO-500")
    page.click("#create")
    page.wait_for_selector("#storno-original")
    assert page.locator("#storno-original .badge--strong").count() == 1
    page.click("#storno-original a")
    page.wait_for_url(re.compile(rf"/incomes/{original['id']}$"))
    assert page.locator("#cancelled-badge").is_visible()
    page.bookdesk_log.assert_clean()


def test_a_period_ending_before_it_starts_is_stopped_in_the_browser(signed_in_page, company, api,
                                                                    sandbox_log):
    created = make_income(api, type=2)
    page = signed_in_page(company)
    edit = f"{_incomes(page, company)}{created['id']}/edit"
    page.goto(edit)
    page.fill("#accounting_period_start", "2025-06-30")
    page.fill("#accounting_period_end", "2025-06-01")
    page.click("#save")
    page.wait_for_selector("#accounting_period_start-client-error")
    assert page.url.endswith(edit)
    assert patches(sandbox_log, company.id) == []
    page.fill("#accounting_period_end", "2025-07-31")
    page.click("#save")
    page.wait_for_url(re.compile(rf"/incomes/{created['id']}$"))
    assert patches(sandbox_log, company.id) == [
        {"accounting_period_start": "2025-06-30", "accounting_period_end": "2025-07-31"}]
    page.bookdesk_log.assert_clean()


def test_pick_a_partner_by_search_on_a_new_document(signed_in_page, company, api):
    ids = catalogue(api)
    partner = api.post("/2/partners/create/", json={
        "name": "Kereső Partner Kft.", "is_customer": True, "tax_number": "22222222-2-42",
        "city": "Szeged"}).json()
    page = signed_in_page(company)
    page.goto(f"{_incomes(page, company)}new")
    page.fill(".partner-picker input[type=search]", "Kereső")
    page.wait_for_selector(f"#partner_id option[value='{partner['id']}']", state="attached")
    assert page.input_value("#partner_id") == str(partner["id"])
    page.fill("#invoice_number", "PARTNER-1")
    page.select_option("[name='assignments-0-revenue_type']", str(ids.revenue_types[0]))
    page.fill("[name='assignments-0-net_amount']", "100")
    page.fill("[name='assignments-0-gross_amount']", "127")
    page.click("#create")
    page.wait_for_url(re.compile(r"/incomes/\d+\?created=1$"))
    assert "Kereső Partner Kft." in page.inner_text(".income-summary")
    assert "Szeged" in page.inner_text(".income-facts")
    page.bookdesk_log.assert_clean()


def test_with_advanced_accounting_the_new_income_categorisation_table_is_whole_at_1280(
        signed_in_page, sandbox_url):
    advanced = create_company(sandbox_url, advanced_accounting=True)
    page = signed_in_page(advanced)
    page.set_viewport_size({"width": 1280, "height": 900})
    for lang in ("hu", "en"):
        page.goto(f"/lang/{lang}?next=/c/{advanced.id}/incomes/new")
        table = page.locator("table.table--form").first
        columns = table.locator("thead th").count()
        hidden = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
        assert columns >= 11 and hidden <= 0, (lang, columns, hidden)
    page.bookdesk_log.assert_clean()
