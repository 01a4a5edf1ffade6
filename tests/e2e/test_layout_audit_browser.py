"""What a UI audit found, measured in the browser: a viewer's policy pages fit a phone with the
read-only banner's button wrapped inside the banner; a bank account number keeps its line; the
document frame shows the focus ring; the file picker stays inside its field on a phone; the
error pages offer the retry, and no way back to the page that failed."""
from __future__ import annotations

from tests.app.expenses_helpers import artifact
from tests.sandbox import expense_support
from tests.sandbox.bank_support import open_account, settle
from tests.sandbox.expense_support import make_expense

ecat = expense_support.ecat  # a fixture, found by name
PHONE = {"width": 360, "height": 800}
NUMBER = "11700024-00000001-00000000"

# The lines a text in the page takes (its range's distinct line tops).
LINES_JS = """(text) => {
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  }
  return 0;
}"""


def test_a_viewers_policy_pages_fit_a_phone_and_the_banners_button_wraps_inside_it(
        signed_in_page, company):
    page = signed_in_page(company, role="viewer")
    page.set_viewport_size(PHONE)
    page.goto("/lang/hu")
    for path in ("policies/", "policies/import", "policies/delete"):
        page.goto(f"/c/{company.id}/{path}")
        banner = page.locator(".readonly-banner").bounding_box()
        button = page.locator(".readonly-banner__actions button").bounding_box()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
        assert button["x"] + button["width"] <= banner["x"] + banner["width"], path
    page.bookdesk_log.assert_clean()


def test_a_bank_account_number_keeps_its_line_on_the_detail_and_the_edit_form(
        signed_in_page, company, api, ecat):
    open_account(api, "Beruházási főszámla a telephely bővítéséhez", NUMBER)
    expense = make_expense(api, ecat, invoice_number="ACC-E2E", payment_method="transfer")
    settle(api, expense["id"], 3, date="2026-02-01")
    page = signed_in_page(company)
    page.goto("/lang/hu")
    for width in (360, 1280, 1440):
        page.set_viewport_size({"width": width, "height": 900})
        for path in (f"expenses/{expense['id']}", f"expenses/{expense['id']}/edit"):
            page.goto(f"/c/{company.id}/{path}")
            assert page.evaluate(LINES_JS, NUMBER) == 1, (width, path)
    page.bookdesk_log.assert_clean()


FRAME_RING_JS = """() => {
  const frame = document.activeElement, style = getComputedStyle(frame);
  return [frame.tagName, style.outlineStyle, parseFloat(style.outlineWidth)];
}"""


def test_the_document_frame_shows_the_focus_ring_when_tabbed_to(signed_in_page, company, api,
                                                                ecat):
    expense = make_expense(api, ecat, invoice_number="FRAME-E2E",
                           artifact=artifact(filename="frame.pdf"))
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/c/{company.id}/expenses/{expense['id']}")
    # From the control before the frame; the PDF viewer takes a moment to accept the focus.
    for _ in range(20):
        page.focus("#artifact .panel__header a.button")
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "IFRAME":
            break
        page.wait_for_timeout(250)
    tag, style, width = page.evaluate(FRAME_RING_JS)
    assert tag == "IFRAME" and style != "none" and width > 0, (tag, style, width)
    page.bookdesk_log.assert_clean()


def test_the_file_picker_stays_inside_its_field_on_a_phone(signed_in_page, company):
    page = signed_in_page(company)
    page.set_viewport_size(PHONE)
    page.goto("/lang/hu")
    page.goto(f"/c/{company.id}/expenses/new")
    field = page.locator(".field:has(> .filepick)").first
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth"), field.evaluate(
        "e => [e.scrollWidth, e.clientWidth]")
    page.bookdesk_log.assert_clean()


def _error_actions(page) -> list[str]:
    return [link.get_attribute("href") for link in page.locator(".error-page .actions a").all()]


def test_the_overview_failing_offers_the_retry_alone(signed_in_page, company, faults):
    page = signed_in_page(company)
    faults.add(path="*", kind="status", status=503)
    response = page.goto(f"/c/{company.id}/")
    assert response.status == 503
    assert _error_actions(page) == [f"/c/{company.id}/"]


def test_a_rate_limited_page_offers_the_retry_as_the_unavailable_one_does(
        signed_in_page, company, faults):
    page = signed_in_page(company)
    faults.add(path="*", kind="status", status=429, retry_after=1)
    response = page.goto(f"/c/{company.id}/incomes/")
    assert response.status == 429
    assert _error_actions(page) == [f"/c/{company.id}/incomes/", f"/c/{company.id}/"]
