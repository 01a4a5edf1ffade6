"""Browser tests of the review keys a keyboard audit found wanting: the start link and `r`
follow the filter the queue shows; Enter on a focused control is that control's; the key list
opens over the rows in view and closing it gives the scroll position back, and the queue's own
keys stay in view; a refused done puts the focus on the field to fix."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.app.test_review_support import income_now, queue_ids, waiting
from tests.conftest import Api
from tests.e2e.test_review import queue_page

UNTYPED = [{"revenue_type": None}]
IN_VIEW_JS = """sel => { const box = document.querySelector(sel).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= innerHeight && box.height > 0; }"""


def test_start_reviewing_follows_the_filter_the_queue_shows(signed_in_page, company, api):
    waiting(api, invoice_number="NEW-1", issued_at="2025-05-02")
    untyped = waiting(api, invoice_number="UNTYPED-1", issued_at="2025-05-01",
                      assignments=UNTYPED)
    assert queue_ids(api)[0] != untyped["id"], "unfiltered, another income is first"
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/")
    page.check("#missing")  # the filter form swaps the table alone (htmx)
    expect(page.locator("#review-queue tr[data-row]")).to_have_count(1)
    expect(page.locator("#start-review")).to_have_attribute(
        "href", re.compile(rf"/review/{untyped['id']}\?.*missing=y"))
    page.keyboard.press("Escape")  # leave the checkbox, as the key list says
    page.keyboard.press("r")
    page.wait_for_url(re.compile(rf"/review/{untyped['id']}\?.*missing=y"))
    expect(page.locator("#review-item h1")).to_have_text("UNTYPED-1")
    expect(page.locator("#review-next")).to_have_count(0)  # the walk is the filtered one
    page.bookdesk_log.assert_clean()


def test_a_filter_matching_nothing_hides_the_start_link_until_one_matches(signed_in_page,
                                                                          company, api):
    made = waiting(api, invoice_number="ONLY-1", gross_amount="1270.00", net_amount="1000.00")
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/")
    page.fill("#amount_min", "999999")
    page.click(".filters button[type=submit]")
    expect(page.locator("#queue-empty")).to_be_visible()
    expect(page.locator("#start-review")).to_be_hidden()
    page.fill("#amount_min", "")
    page.click(".filters button[type=submit]")
    expect(page.locator("#start-review")).to_have_attribute(
        "href", re.compile(rf"/review/{made['id']}(\?|$)"))
    page.bookdesk_log.assert_clean()  # no swap went without its target


def test_enter_on_the_bulk_button_marks_the_selected_rows_done(signed_in_page, company, api):
    page, order = queue_page(signed_in_page, company, api, "BULK", 4)
    for key in "jxjxjx":
        page.keyboard.press(key)
    expect(page.locator("#bulk-done")).to_contain_text("3")
    page.focus("#bulk-done")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-undo form")
    assert re.search(r"/review/(\?.*)?$", page.url), page.url
    assert [i for i in order if income_now(api, i)["review_done"]] == order[:3]
    page.bookdesk_log.assert_clean()


def test_enter_on_a_focused_link_follows_it_and_on_the_page_opens_the_row(signed_in_page,
                                                                          company, api):
    page, order = queue_page(signed_in_page, company, api, "LINK", 2)
    page.keyboard.press("j")
    page.focus("#review-queue thead a")  # the sort link of the first column
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/review/\?.*ordering="))
    page.keyboard.press("j")  # focus on the page: Enter is the queue's again
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/review/\d+"))
    assert int(re.search(r"/review/(\d+)", page.url).group(1)) in order
    page.bookdesk_log.assert_clean()


def test_the_key_list_opens_over_the_rows_in_view_and_closing_gives_the_scroll_back(
        signed_in_page, company, api):
    for number in range(16):
        waiting(api, invoice_number=f"KEYS-{number:02d}")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 600})
    page.goto(f"/c/{company.id}/review/")
    for _ in range(12):
        page.keyboard.press("j")
    scrolled = page.evaluate("scrollY")
    assert scrolled > 0, "the cursor took the page down"
    assert page.evaluate(IN_VIEW_JS, "#queue-keys"), "the queue's keys stay in view"
    expect(page.locator("#queue-keys")).to_contain_text("j")
    page.keyboard.press("?")
    expect(page.locator("#review-keys .keys__list")).to_be_visible()
    assert page.evaluate(IN_VIEW_JS, "#review-keys"), "the list opens where the user is"
    assert page.evaluate("scrollY") == scrolled
    page.keyboard.press("?")
    expect(page.locator("#review-keys")).to_be_hidden()
    assert page.evaluate("scrollY") == scrolled
    page.click("#queue-keys [data-keys-open]")
    expect(page.locator("#review-keys")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#review-keys")).to_be_hidden()
    assert page.evaluate("scrollY") == scrolled
    page.keyboard.press("k")  # the cursor is where it was: one row up from the 12th
    expect(page.locator("#review-queue tr[data-row]").nth(10)).to_have_class(
        re.compile(r"\bis-cursor\b"))
    page.bookdesk_log.assert_clean()


def test_a_refused_done_puts_the_focus_on_the_field_to_fix(signed_in_page, sandbox_url,
                                                           make_company):
    advanced = Api(sandbox_url, make_company(advanced_accounting=True))
    bare = waiting(advanced, invoice_number="BARE-1", assignments=UNTYPED)
    page = signed_in_page(advanced.company)
    page.goto(f"/c/{advanced.company.id}/review/{bare['id']}")
    expect(page.locator("#review-item")).to_be_focused()
    page.keyboard.press("d")
    field = page.locator("#assignments-0-revenue_type")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()
    page.keyboard.press("ArrowDown")  # fixed at once: a revenue type, then save and done
    page.keyboard.press("Control+Enter")
    expect(page.locator("#review-end")).to_be_visible()
    now = income_now(advanced, bare["id"])
    assert now["review_done"] is True and now["assignments"][0]["revenue_type"]
    assert not page.bookdesk_log.page_errors
