"""Layout in a real browser: the top bar fits a phone, sign-in is centred, dashboard lines up,
the income and expense lists fit a laptop screen, a record's short facts keep their line, a row
table's amounts are never cut off, and a list's filter band is one column on a phone and cuts
no placeholder or chosen option."""
from __future__ import annotations

from datetime import date, timedelta

import requests

from tests.app.expenses_helpers import artifact, make_expense, row
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.incomes_helpers import catalogue as income_catalogue
from tests.app.incomes_helpers import make_income
from tests.app.taxes_support import create
from tests.app.test_review_support import waiting

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def _make_income(sandbox_url: str, company, number: str) -> None:
    response = requests.post(f"{sandbox_url}/_sandbox/incomes/", timeout=10,
                             json={"company_id": company.id, "invoice_number": number})
    assert response.status_code == 201, response.text


def test_top_bar_fits_a_phone_and_sign_out_is_fully_visible_in_the_menu(signed_in_page, company):
    page = signed_in_page(company)
    page.set_viewport_size(PHONE)
    page.goto(f"/c/{company.id}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("button.navtoggle")
    box = page.locator(".topbar__logout button").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator(".topbar__logout button").is_visible()
    page.bookdesk_log.assert_clean()


def test_single_sign_in_card_is_centred_at_laptop_width(page):
    page.set_viewport_size(LAPTOP)
    page.goto("/login")
    box = page.locator(".auth__card").first.bounding_box()
    assert abs(box["x"] + box["width"] / 2 - LAPTOP["width"] / 2) < 2


def test_dashboard_stat_values_line_up_and_invoice_numbers_do_not_wrap(
        signed_in_page, company, sandbox_url):
    _make_income(sandbox_url, company, "HOSSZU-SZAMLA-2026-000123")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 1000, "height": 800})
    page.goto(f"/c/{company.id}/")
    # The four count cards of the first row (the amounts follow in their own rows).
    tops = page.eval_on_selector_all(".stats:not(.stats--amounts) .stat__value",
                                     "els => els.map(e => e.offsetTop)")
    assert len(tops) == 4 and len(set(tops)) == 1, tops
    link = page.locator("td.nowrap a", has_text="HOSSZU-SZAMLA-2026-000123")
    line_height = float(link.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert link.bounding_box()["height"] < line_height * 1.5


NAV_ROWS_JS = """() => new Set([...document.querySelectorAll('.mainnav__item')]
    .map(item => Math.round(item.getBoundingClientRect().top))).size"""


def test_main_navigation_is_one_row_at_laptop_width_and_its_menus_open_inside_the_window(
        signed_in_page, company):
    page = signed_in_page(company)
    page.set_viewport_size(LAPTOP)
    for lang in ("hu", "en"):
        page.goto("/lang/" + lang)
        page.goto(f"/c/{company.id}/settings/")
        assert page.evaluate(NAV_ROWS_JS) == 1, lang
        for summary in page.locator(".mainnav summary").all():
            summary.click()
            menu = summary.locator("xpath=following-sibling::ul").bounding_box()
            assert menu["x"] >= 0 and menu["x"] + menu["width"] <= LAPTOP["width"], (lang, menu)
            summary.click()
        assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    page.bookdesk_log.assert_clean()


SCROLLED_OUT_JS = """() => [...document.querySelectorAll('.table-wrap')]
    .map(wrap => wrap.scrollWidth - wrap.clientWidth)"""
COLUMN_WIDTHS_JS = """() => [...document.querySelectorAll('.table-wrap thead th')]
    .map(th => `${th.innerText.replace(/\\s+/g, ' ')} ${Math.round(th.offsetWidth)}`).join(', ')"""
LONG_NAME = "Hortobágyi Vendéglátó és Szolgáltató Korlátolt Felelősségű Társaság"


def _widest_rows(api) -> None:
    """Incomes and expenses with the widest cells their lists show: overdue, partly paid, two
    tags, a long partner, 16-character numbers, amounts in the tens of millions, a file,
    excluded from accounting."""
    overdue = (date.today() - timedelta(days=400)).isoformat()
    dates = {"issued_at": overdue, "fulfilled_at": overdue, "due_at": overdue}
    tags = income_catalogue(api).tags[:2]
    for review in (True, False):
        make_income(api, invoice_number=f"PK-2026/0001234{int(review)}", partner_name=LONG_NAME,
                    net_amount="9721007.09", vat_amount="2624671.91",
                    gross_amount="12345679.00", payments=[{"amount": "1000.00"}],
                    needs_review=review, tags=tags, **dates)
    ids = expense_catalogue(api)
    amounts = row(ids, net="9721007.09", vat="2624671.91", gross="12345679.00")
    for excluded in (True, False):
        make_expense(api, invoice_number=f"SZLA-2026-00123{int(excluded)}",
                     partner_name=LONG_NAME, assignments=[amounts], paid_status=3,
                     excluded_from_accounting=excluded, artifact=artifact(), **dates)


def test_income_and_expense_lists_fit_a_laptop_screen_in_both_languages_and_both_tabs(
        signed_in_page, company, api):
    _widest_rows(api)
    page = signed_in_page(company)
    page.set_viewport_size(LAPTOP)
    for lang in ("hu", "en"):
        page.goto("/lang/" + lang)
        for area in ("incomes", "expenses"):
            for tab in ("", "?tab=overdue"):
                page.goto(f"/c/{company.id}/{area}/{tab}")
                assert page.locator(".table-wrap tbody tr").count() == 2, (area, tab)
                widths = page.evaluate(COLUMN_WIDTHS_JS)
                assert page.evaluate(SCROLLED_OUT_JS) == [0], (lang, area, tab, widths)
    page.bookdesk_log.assert_clean()


WRAPPED_FACTS_JS = """() => [...document.querySelectorAll('.facts__list dd')]
    .filter(dd => dd.innerText.trim().length <= 20)
    .filter(dd => dd.offsetHeight > 1.5 * parseFloat(getComputedStyle(dd).lineHeight))
    .map(dd => `${dd.previousElementSibling.innerText}: ${dd.innerText}`)"""


def test_a_records_dates_numbers_and_country_keep_their_line_on_a_laptop_screen(
        signed_in_page, company, api):
    income = make_income(api, invoice_number="PK-2026/000123", partner_name=LONG_NAME)
    expense = make_expense(api, expense_catalogue(api), invoice_number="SZLA-2026-001234",
                           partner_name=LONG_NAME, artifact=artifact())
    page = signed_in_page(company)
    page.set_viewport_size(LAPTOP)
    for lang in ("hu", "en"):
        page.goto("/lang/" + lang)
        for path in (f"incomes/{income['id']}", f"expenses/{expense['id']}"):
            page.goto(f"/c/{company.id}/{path}")
            assert page.locator(".facts__list dd").count() >= 6, path
            assert page.evaluate(WRAPPED_FACTS_JS) == [], (lang, path)
    page.bookdesk_log.assert_clean()


CUT_AMOUNTS_JS = """() => [...document.querySelectorAll('.table--form td.num input')]
    .filter(input => input.scrollWidth > input.clientWidth + 1)
    .map(input => input.name + '=' + input.value)"""


def test_a_categorisation_rows_amounts_are_never_cut_off_and_its_messages_wrap_in_the_cell(
        signed_in_page, company, api):
    income = make_income(api, invoice_number="BIZ-2026-0777", net_amount="7654321.89",
                         vat_amount="2066666.91", gross_amount="9720988.80")
    page = signed_in_page(company)
    for lang, size in (("hu", PHONE), ("hu", LAPTOP), ("en", LAPTOP)):
        page.set_viewport_size(size)
        page.goto("/lang/" + lang)
        page.goto(f"/c/{company.id}/incomes/{income['id']}/edit")
        assert page.locator(".table--form td.num input").count() >= 3
        assert page.evaluate(CUT_AMOUNTS_JS) == [], (lang, size)
    page.select_option("[name='assignments-0-vat']", label="27%")
    page.fill("[name='assignments-0-net_amount']", "123456789012.99")
    message = page.locator(".table--form td.num .field__errors", has_text="123,456,789,012.99")
    message.wait_for()
    assert page.evaluate(CUT_AMOUNTS_JS) == []
    assert message.bounding_box()["width"] <= 16 * 16 + 1
    page.bookdesk_log.assert_clean()


def test_a_table_wider_than_a_phone_fades_on_the_side_with_more_columns(signed_in_page, company,
                                                                        api):
    create(api, {"month": "2026-11", "amount": "125000", "code": "103"})
    page = signed_in_page(company)
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"/c/{company.id}/taxes/?from=2026-11&to=2026-11")
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")
    assert wrap.get_attribute("data-more") == "right"
    assert wrap.evaluate("e => getComputedStyle(e).maskImage") != "none"
    wrap.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_function("() => document.querySelector('.table-wrap').dataset.more === 'left'")
    page.set_viewport_size(LAPTOP)
    page.wait_for_function("() => !document.querySelector('.table-wrap').dataset.more")
    page.bookdesk_log.assert_clean()


def test_the_review_queue_keeps_no_empty_place_for_an_undo_bar(signed_in_page, company):
    page = signed_in_page(company)
    page.set_viewport_size(LAPTOP)
    page.goto(f"/c/{company.id}/review/")
    assert not page.locator("#review-undo").is_visible()
    header = page.locator(".page-header").bounding_box()
    filters = page.locator("form.filters").bounding_box()
    assert filters["y"] - (header["y"] + header["height"]) < 24
    page.bookdesk_log.assert_clean()


def test_a_tax_number_keeps_its_line_on_the_review_screen_of_a_phone(signed_in_page, company,
                                                                   api):
    made = waiting(api, partner_name="Hortobágy Média Kft.",
                   partner_tax_number="82212944106")
    page = signed_in_page(company)
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"/c/{company.id}/review/{made['id']}")
    number = page.locator("#review-item .muted", has_text="82212944-1-06")
    line_height = float(number.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
    assert number.bounding_box()["height"] < line_height * 1.5
    page.bookdesk_log.assert_clean()


# Each visible control of the first element matching a selector (a page's filter band, a
# form's partner picker): its box, that element's right edge, and the
# width its text needs: a select's chosen option (a copy holding that option alone, sized by
# the browser) or an input's placeholder or value (measured in its font, plus padding and
# border).
CONTROLS_JS = """(selector) => {
  const canvas = document.createElement('canvas').getContext('2d');
  const optionWidth = (select) => {
    const copy = select.cloneNode(false);
    copy.removeAttribute('id');
    copy.removeAttribute('name');
    copy.append(select.selectedOptions[0].cloneNode(true));
    copy.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0; ' +
      'max-width: none';
    select.after(copy);
    const width = copy.getBoundingClientRect().width;
    copy.remove();
    return width;
  };
  const textWidth = (input) => {
    const style = getComputedStyle(input);
    canvas.font = style.font;
    const edges = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'];
    return canvas.measureText(input.value || input.placeholder).width +
      edges.reduce((sum, edge) => sum + parseFloat(style[edge]), 0);
  };
  const band = document.querySelector(selector);
  const bandRight = band.getBoundingClientRect().right;
  return [...band.querySelectorAll('input, select')]
    .filter((el) => !['hidden', 'checkbox'].includes(el.type) && el.offsetParent !== null)
    .map((el) => {
      const box = el.getBoundingClientRect();
      return {name: el.name, left: box.left, right: box.right, top: box.top,
              bottom: box.bottom, band: bandRight,
              need: el.tagName === 'SELECT' ? optionWidth(el) : textWidth(el)};
    });
}"""
FILTER_PAGES = ("incomes/", "review/", "expenses/", "bank/", "taxes/", "partners/")
BAND = "form[role=search]"


def _overlap(a: dict, b: dict) -> bool:
    return (a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


def _cut_or_covered(controls: list[dict]) -> list:
    """Controls narrower than their text or past the band's edge, and pairs that overlap."""
    cut = [c["name"] for c in controls
           if c["need"] > c["right"] - c["left"] + 1 or c["right"] > c["band"] + 1]
    return cut + [(a["name"], b["name"]) for number, a in enumerate(controls)
                  for b in controls[number + 1:] if _overlap(a, b)]


def test_filter_bands_are_one_column_on_a_phone_and_cut_no_placeholder_or_chosen_option(
        signed_in_page, company):
    page = signed_in_page(company)
    for lang in ("hu", "en"):
        page.goto("/lang/" + lang)
        for width in (360, 1280, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            for path in FILTER_PAGES:
                page.goto(f"/c/{company.id}/{path}")
                controls = page.evaluate(CONTROLS_JS, BAND)
                where = (lang, width, path, controls)
                assert len(controls) >= 2 and _cut_or_covered(controls) == [], where
                columns = {(round(c["left"]), round(c["right"] - c["left"])) for c in controls}
                assert width > 360 or len(columns) == 1, where
    page.bookdesk_log.assert_clean()


def test_a_forms_partner_picker_cuts_neither_its_placeholder_nor_the_chosen_partner(
        signed_in_page, company, api):
    income = make_income(api, type=2, partner_name="Hortobágy Média Kft.")
    page = signed_in_page(company)
    for lang in ("hu", "en"):
        page.goto("/lang/" + lang)
        for width in (360, 1280, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            for path in ("incomes/new", f"incomes/{income['id']}/edit"):
                page.goto(f"/c/{company.id}/{path}")
                controls = page.evaluate(CONTROLS_JS, "form .partner-picker")
                where = (lang, width, path, controls)
                assert len(controls) == 2 and _cut_or_covered(controls) == [], where
    page.bookdesk_log.assert_clean()


def test_a_long_search_scrolls_inside_its_box_and_never_widens_the_page(signed_in_page, company):
    page = signed_in_page(company)
    for width in (1024, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        for path in ("incomes/", "expenses/", "partners/"):
            page.goto(f"/c/{company.id}/{path}")
            box = page.locator(f"{BAND} input[type=search]").first
            box.fill("Hosszú keresés " * 20)
            wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert wide <= 0, (width, path, wide)
            assert box.bounding_box()["width"] <= 22 * 16 + 1, (width, path)
    page.bookdesk_log.assert_clean()
