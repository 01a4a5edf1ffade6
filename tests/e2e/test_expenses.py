"""Browser checks of the expense pages: filter, detail with its PDF framed, edit an assignment
and add one, exclude from accounting twice, upload a real PDF and a fake one, select a page of
expenses and approve them."""
from __future__ import annotations

import base64
import re
from datetime import UTC, datetime, timedelta

import requests
from playwright.sync_api import expect

from sandbox.core.demo_files import minimal_pdf

PDF = minimal_pdf("Szamla E2E-1")
# Chromium logs every 4xx response, and htmx logs the 4xx it swaps in on purpose.
EXPECTED_4XX = ("Failed to load resource", "Response Status Error Code 400")


def _catalogue(sandbox_url, company) -> dict:
    headers = {"Authorization": f"Token {company.tokens['admin']}"}
    get = lambda path: requests.get(sandbox_url + path, headers=headers, timeout=10).json()  # noqa: E731
    return {"types": [t["id"] for t in get("/2/expense-types/")],
            "vats": [v["id"] for v in get("/2/accounting/vat-categories/") if v["type"] == "cost"]}


def _expense(sandbox_url, company, **spec) -> dict:
    ids = _catalogue(sandbox_url, company)
    spec.setdefault("assignments", [{"expense_type": ids["types"][0], "net_amount": "1000.00",
                                     "vat_amount": "270.00", "gross_amount": "1270.00",
                                     "vat": ids["vats"][0]}])
    response = requests.post(f"{sandbox_url}/_sandbox/expenses/", timeout=10,
                             json={"company_id": company.id, **spec})
    assert response.status_code == 201, response.text
    return response.json()


def _detail(sandbox_url, company, expense_id) -> dict:
    return requests.get(f"{sandbox_url}/2/expenses/{expense_id}/", timeout=10, headers={
        "Authorization": f"Token {company.tokens['admin']}"}).json()


def _only_expected_errors(log) -> None:
    unexpected = [e for e in log.console_errors if not e.startswith(EXPECTED_4XX)]
    assert not unexpected + log.page_errors + log.csp_violations, unexpected + log.page_errors


def test_filter_by_paid_state_and_changed_since(signed_in_page, company, sandbox_url,
                                                browser_log):
    _expense(sandbox_url, company, invoice_number="PAID-1", paid_status=2)
    _expense(sandbox_url, company, invoice_number="OPEN-1", paid_status=1)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/")
    page.select_option("#is_paid", "true")
    page.wait_for_url(re.compile(r"is_paid=true"))
    rows = page.locator("#expense-list .table--expenses tbody tr")
    assert rows.count() == 1 and "PAID-1" in rows.inner_text()
    day = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d")
    page.fill("#since", f"{day}T08:30")
    page.select_option("#tz", "+01:00")
    page.click("#apply-filters")
    page.wait_for_url(re.compile(r"tz=%2B01%3A00"))
    assert "PAID-1" in page.inner_text("#expense-list")
    log = requests.get(f"{sandbox_url}/_sandbox/requests/", timeout=10).json()["requests"]
    sent = [r["args"] for r in log if r["company_id"] == company.id
            and r["path"].rstrip("/") == "/2/expenses" and "updated_since" in r["args"]]
    assert sent[-1]["updated_since"] == [f"{day}T08:30:00+01:00"]
    browser_log.assert_clean()


def test_open_the_detail_with_its_pdf_framed(signed_in_page, company, sandbox_url, browser_log):
    created = _expense(sandbox_url, company, invoice_number="PDF-1", artifact={
        "filename": "szamla.pdf", "content_base64": base64.b64encode(PDF).decode()})
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/")
    with page.expect_response(re.compile(r"/file$")) as answer:
        page.click(f"text={created['filing_number']}")
    assert answer.value.status == 200
    assert answer.value.headers["content-type"] == "application/pdf"
    frame = page.locator("iframe#artifact-pdf")
    assert frame.get_attribute("src") == f"/c/{company.id}/expenses/{created['id']}/file"
    page.wait_for_timeout(500)
    assert not [e for e in browser_log.console_errors if "frame" in e.lower()]
    browser_log.assert_clean()


def test_edit_an_assignment_and_add_one(signed_in_page, company, sandbox_url, browser_log):
    created = _expense(sandbox_url, company, invoice_number="EDIT-1")
    ids = _catalogue(sandbox_url, company)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/{created['id']}/edit")
    page.fill("[name='assignments-0-job_number']", "JOB-E2E")
    page.click("[data-add-row]")
    new_row = page.locator("tbody[data-rows] tr[data-row]").nth(1)
    new_row.locator("select[name$='-expense_type']").select_option(str(ids["types"][1]))
    new_row.locator("input[name$='-net_amount']").fill("200")
    new_row.locator("input[name$='-vat_amount']").fill("54")
    new_row.locator("input[name$='-gross_amount']").fill("254")
    new_row.locator("select[name$='-vat']").select_option(str(ids["vats"][0]))
    page.click("#save")
    page.wait_for_url(re.compile(rf"/expenses/{created['id']}$"))
    assert "JOB-E2E" in page.inner_text("#assignments")
    rows = _detail(sandbox_url, company, created["id"])["assignments"]
    assert rows[0]["id"] == created["assignments"][0]["id"] and len(rows) == 2
    assert rows[1]["gross_amount"] == "254.00"
    browser_log.assert_clean()


def test_the_total_row_follows_a_split_and_shows_the_saved_total_until_it_adds_up(
        signed_in_page, company, sandbox_url, browser_log):
    created = _expense(sandbox_url, company, invoice_number="SPLIT-1")
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/{created['id']}/edit")
    gross, saved = page.locator("[data-sum='gross_amount'] [data-sum-value]"), \
        page.locator("[data-sum='gross_amount'] [data-sum-saved]")
    expect(gross).to_have_text(re.compile(r"^1\s?270\sFt$"))
    assert saved.inner_text() == ""
    for name, value in (("net_amount", "600"), ("vat_amount", "162"), ("gross_amount", "762")):
        page.fill(f"[name='assignments-0-{name}']", value)
    expect(gross).to_have_text(re.compile(r"^762\sFt$"))
    expect(saved).to_have_text(re.compile(r"^mentett összeg: 1\s?270\sFt$"))
    page.click("[data-add-row]")
    new_row = page.locator("tbody[data-rows] tr[data-row]").nth(1)
    for name, value in (("net_amount", "400"), ("vat_amount", "108"), ("gross_amount", "508")):
        new_row.locator(f"input[name$='-{name}']").fill(value)
    expect(gross).to_have_text(re.compile(r"^1\s?270\sFt$"))
    expect(saved).to_have_text("")
    expect(page.locator("[data-sum='net_amount'] [data-sum-value]")).to_have_text(
        re.compile(r"^1\s?000\sFt$"))
    _only_expected_errors(browser_log)


def test_exclude_from_accounting_twice_shows_the_refusal(signed_in_page, company, sandbox_url,
                                                        browser_log):
    created = _expense(sandbox_url, company, invoice_number="EXCL-1")
    page = signed_in_page(company)
    confirm = f"/c/{company.id}/expenses/{created['id']}/exclude"
    other = page.context.new_page()
    other.on("console", page.bookdesk_log.on_console)
    page.goto(confirm)
    other.goto(confirm)
    page.click("#confirm")
    page.wait_for_url(re.compile(rf"/expenses/{created['id']}$"))
    assert page.locator("#excluded-note").is_visible()
    other.click("#confirm")
    other.wait_for_url(re.compile(rf"/expenses/{created['id']}$"))
    alert = other.locator("#messages .alert--error")
    assert "already excluded" in alert.inner_text() or "már ki van zárva" in alert.inner_text()
    assert other.locator("h1").inner_text() == created["filing_number"]
    browser_log.assert_clean()


def test_upload_a_fake_pdf_then_a_real_one(signed_in_page, company, browser_log):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/new")
    page.set_input_files("#files", files=[{"name": "hamis.pdf", "mimeType": "application/pdf",
                                           "buffer": b"MZ\x90\x00 not a pdf at all"}])
    page.click("#upload-submit")
    errors = page.locator("#upload-errors")
    errors.wait_for()
    assert "hamis.pdf" in errors.inner_text()
    assert "nem valódi PDF" in errors.inner_text() or "not a real PDF" in errors.inner_text()
    page.set_input_files("#files", files=[{"name": "valodi.pdf", "mimeType": "application/pdf",
                                           "buffer": PDF}])
    page.click("#upload-submit")
    page.wait_for_url(re.compile(rf"/c/{company.id}/expenses/\d+$"))
    assert page.locator("iframe#artifact-pdf").count() == 1
    assert "valodi.pdf" in page.inner_text("#artifact")
    _only_expected_errors(browser_log)


def test_upload_progress_follows_the_htmx_progress_events(signed_in_page, company,
                                                         browser_log):
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/new")
    box = page.locator("[data-upload-progress]")
    assert box.is_hidden()
    page.evaluate("""() => document.querySelector("#files").dispatchEvent(new CustomEvent(
        "htmx:xhr:progress", {bubbles: true, detail: {lengthComputable: true, loaded: 42,
                                                      total: 100}}))""")
    assert box.is_visible()
    assert page.evaluate("() => document.querySelector('#upload-progress').value") == 42
    assert page.inner_text("[data-upload-percent]") == "42%"  # CLDR's percent, as the pages
    browser_log.assert_clean()


def test_select_all_on_the_page_then_approve(signed_in_page, company, sandbox_url, browser_log):
    ids = [_expense(sandbox_url, company, invoice_number=f"BULK-{n}")["id"] for n in range(3)]
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/expenses/")
    page.check("#expense-select-page")
    assert page.locator("#expense-list [data-select]:checked").count() == 3
    page.click("#bulk-approve")
    page.wait_for_selector("#messages :text('3 költség jóváhagyva')")
    assert all(_detail(sandbox_url, company, i)["approved"] is True for i in ids)
    _only_expected_errors(browser_log)
