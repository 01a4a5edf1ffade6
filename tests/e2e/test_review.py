"""Browser tests of the review loop: keyboard only, five incomes done, the last one undone; the
queue by keyboard; the categorisation table whole beside the document on a 1280-pixel screen,
and every revenue type name whole in its drop-down there."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.app.test_review_support import income_now, queue_ids, waiting
from tests.conftest import Api, create_company
from tests.e2e.screens_support import FOCUS_RING_JS


def queue_page(signed_in_page, company, api, prefix: str, count: int):
    """(the review queue page, its income ids in order) with count incomes waiting, numbered
    prefix-0, prefix-1…"""
    for number in range(count):
        waiting(api, invoice_number=f"{prefix}-{number}")
    order = queue_ids(api)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/")
    return page, order


def test_a_reviewer_clears_five_incomes_by_keyboard_and_undoes_the_last(signed_in_page,
                                                                         company, api):
    page, order = queue_page(signed_in_page, company, api, "BILL", 7)
    numbers = {i: income_now(api, i)["invoice_number"] for i in order}
    page.keyboard.press("r")
    page.wait_for_url(re.compile(rf"/review/{order[0]}$"))
    title = page.locator("#review-item h1")
    for index in range(5):
        expect(title).to_have_text(numbers[order[index]])
        if index:
            _settled(page)
        page.keyboard.press("d")
    expect(title).to_have_text(numbers[order[5]])
    assert re.search(rf"/review/{order[5]}$", page.url)
    assert [i for i in order if income_now(api, i)["review_done"]] == order[:5]
    _settled(page)
    page.keyboard.press("u")
    expect(title).to_have_text(numbers[order[4]])
    assert [i for i in order if income_now(api, i)["review_done"]] == order[:4]
    page.bookdesk_log.assert_clean()


def test_a_screen_opened_by_its_link_starts_with_the_income_focused(signed_in_page, company,
                                                                    api):
    made = waiting(api, invoice_number="LINK-1")
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/{made['id']}")
    assert page.evaluate("document.activeElement.id") == "review-item"
    page.keyboard.press("d")
    page.wait_for_function("() => document.getElementById('review-end') !== null")
    assert income_now(api, made["id"])["review_done"] is True
    page.bookdesk_log.assert_clean()


def test_the_income_focused_after_a_key_shows_its_focus_ring(signed_in_page, company, api):
    numbers = {waiting(api, invoice_number=n)["id"]: n for n in ("RING-1", "RING-2")}
    order = queue_ids(api)
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/{order[0]}")
    page.keyboard.press("j")  # the next income, by key
    expect(page.locator("#review-item h1")).to_have_text(numbers[order[1]])
    _settled(page)
    focused = page.evaluate(FOCUS_RING_JS)
    assert focused["label"].startswith("div#review-item") and focused["ring"], focused
    page.bookdesk_log.assert_clean()


def _settled(page) -> None:
    """Wait until htmx has settled the swapped-in income: keys pressed before then are dropped
    (its form is not wired up yet)."""
    expect(page.locator("#review-item")).not_to_have_class(re.compile(r"\bhtmx-settling\b"))
    expect(page.locator("#review-item")).to_be_focused()


def test_keys_do_nothing_while_typing_and_the_key_list_opens_with_a_question_mark(
        signed_in_page, company, api):
    first = waiting(api, invoice_number="TYPE-1")
    waiting(api, invoice_number="TYPE-2")
    page = signed_in_page(company)
    page.goto(f"/c/{company.id}/review/{first['id']}")
    page.click("#note")
    page.keyboard.type("d s j")
    assert page.input_value("#note") == "d s j"
    expect(page.locator("#review-item h1")).to_have_text("TYPE-1")
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    expect(page.locator("#review-keys .keys__list")).to_be_visible()
    page.keyboard.press("Control+Enter")
    expect(page.locator("#review-item h1")).to_have_text("TYPE-2")
    assert income_now(api, first["id"])["note"] == "d s j"
    page.bookdesk_log.assert_clean()


def test_shift_click_selects_a_range_and_bulk_done_says_how_many(signed_in_page, company,
                                                                 api):
    page, order = queue_page(signed_in_page, company, api, "SEL", 5)
    boxes = page.locator("[data-select]")
    boxes.nth(0).click()
    boxes.nth(3).click(modifiers=["Shift"])
    expect(page.locator("#bulk-done")).to_contain_text("4")
    page.click("#bulk-done")
    page.wait_for_selector("#review-undo form")
    assert [i for i in order if income_now(api, i)["review_done"]] == order[:4]
    page.bookdesk_log.assert_clean()


def test_the_queue_moves_selects_and_opens_rows_by_keyboard(signed_in_page, company, api):
    page, order = queue_page(signed_in_page, company, api, "ROW", 3)
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("x")
    assert page.locator("[data-select]").nth(1).is_checked()
    expect(page.locator("#bulk-done")).to_contain_text("1")
    page.keyboard.press("x")  # untick: the button no longer names a count
    expect(page.locator("#bulk-done")).not_to_contain_text("1")
    page.keyboard.press("x")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/review/{order[1]}$"))
    page.bookdesk_log.assert_clean()


def test_the_categorisation_table_fits_beside_the_document_at_1280_pixels(signed_in_page,
                                                                          company, api):
    income = waiting(api, invoice_number="WIDE-1", partner_name="Tisza Vendéglátó Bt.")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1280, "height": 900})
    hidden = {}
    for lang in ("hu", "en"):
        page.goto(f"/lang/{lang}")
        page.goto(f"/c/{company.id}/review/{income['id']}")
        expect(page.locator(".review-doc")).to_be_visible()
        hidden[lang] = page.evaluate("""() => {
          const table = document.querySelector('.review-form table');
          let box = table.parentElement;
          while (getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
          return table.offsetWidth - box.clientWidth;
        }""")
    assert max(hidden.values()) <= 0, f"pixels of the table scrolled out of view: {hidden}"
    page.bookdesk_log.assert_clean()


# Room a drop-down needs besides its text and padding: Chromium's arrow (a 141 px wide one cut
# "Termékértékesítés", 115 px of text, and a 166 px one showed it whole).
ARROW_PX = 20
TYPE_NAME_CUT_JS = """(arrow) => {
  const select = document.querySelector('.review-form select[name$=revenue_type]');
  const style = getComputedStyle(select);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ');
  const room = select.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight) - arrow;
  return [...select.options].map(o => [o.text, Math.ceil(pen.measureText(o.text).width - room)])
    .filter(([_, cut]) => cut > 0);
}"""


def test_every_revenue_type_name_is_whole_in_its_drop_down_at_1280_pixels(signed_in_page,
                                                                           sandbox_url):
    advanced = create_company(sandbox_url, advanced_accounting=True)  # the most columns
    income = waiting(Api(sandbox_url, advanced), invoice_number="TYPES-1")
    page = signed_in_page(advanced)
    page.set_viewport_size({"width": 1280, "height": 900})
    for lang in ("hu", "en"):
        page.goto(f"/lang/{lang}?next=/c/{advanced.id}/review/{income['id']}")
        assert page.evaluate(TYPE_NAME_CUT_JS, ARROW_PX) == [], lang
