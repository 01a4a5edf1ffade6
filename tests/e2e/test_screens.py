"""Every page type at phone and desktop widths: no sideways page scroll, no overlapping boxes
(measured from element rectangles), no content running out of its box, a full-page screenshot
each; axe-core finds no moderate, serious or critical problem in Hungarian or English; Tab
shows a focus ring on every stop.

One signed-in browser context serves the whole module (the pages only read), so the tests are
grouped on one xdist worker. Screenshots: tests/artifacts/screens/<lang>-<page>-<width>.png.
"""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.conftest import create_company
from tests.e2e.conftest import _watched_page, sign_in
from tests.e2e.screens_support import (
    FOCUS_RING_JS,
    HEIGHT,
    OVERLAPS_JS,
    PAGE_WIDTH_JS,
    SCREENS,
    SPILL_JS,
    WIDTHS,
    page_types,
    seed,
)

pytestmark = pytest.mark.xdist_group("screens")
PAGE_NAMES = ("dashboard", "income-list", "income-detail", "income-edit", "income-new",
              "review-queue", "review-screen", "expense-list", "expense-detail", "expense-edit",
              "partner-list", "partner-edit", "tax-list", "tax-new", "salary-list", "salary-new",
              "catalogue", "settings", "policy-editor", "policy-history", "sign-in", "bank",
              "vat-summary", "month-end", "partner-card", "practice", "review-log", "documents")
BLOCKING = ("moderate", "serious", "critical")


@pytest.fixture(scope="module")
def seeded(sandbox_url):
    """One company with a record of every kind."""
    return seed(sandbox_url, create_company(sandbox_url))


@pytest.fixture(scope="module")
def screens(browser, bookdesk_url, seeded):
    """(signed-in page, signed-out page, paths): reused by every test of the module."""
    signed_in = _watched_page(browser, bookdesk_url)
    sign_in(signed_in, seeded.company)
    signed_out = _watched_page(browser, bookdesk_url)
    yield signed_in, signed_out, page_types(seeded)
    signed_in.context.close()
    signed_out.context.close()


def _open(screens, name: str, lang: str = "hu"):
    signed_in, signed_out, paths = screens
    page = signed_out if name == "sign-in" else signed_in
    page.goto(f"/lang/{lang}?next={paths[name]}")
    page.wait_for_load_state("load")
    assert page.url.split("?")[0].endswith(paths[name]), page.url
    return page


def test_every_page_type_is_measured(seeded):
    assert set(PAGE_NAMES) == set(page_types(seeded))


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page_fits_every_width_without_sideways_scroll_overlaps_or_spills(screens, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page = _open(screens, name)
    problems = []
    try:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT})
            page.reload()
            shot = SCREENS / f"hu-{name}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            print(f"screenshot: {shot}")
            scroll_width, inner = page.evaluate(PAGE_WIDTH_JS)
            if scroll_width > inner:
                problems.append(f"{width}px: page is {scroll_width}px wide")
            problems += [f"{width}px: {overlap}" for overlap in page.evaluate(OVERLAPS_JS)]
            problems += [f"{width}px: spills out: {box}" for box in page.evaluate(SPILL_JS)]
    finally:  # the page is shared by the module's tests
        page.set_viewport_size({"width": 1280, "height": HEIGHT})
    assert not problems, "\n".join(problems)
    page.bookdesk_log.assert_clean()


def test_phone_header_is_one_row_with_a_menu_button_that_opens_the_navigation(screens):
    page = _open(screens, "dashboard")
    page.set_viewport_size({"width": 360, "height": HEIGHT})
    try:
        page.reload()
        button = page.locator("button.navtoggle")
        assert page.locator("header.topbar").bounding_box()["height"] <= 64
        assert button.get_attribute("aria-expanded") == "false"
        assert not page.locator("#mainnav a", has_text="Költségek").is_visible()
        button.focus()
        page.keyboard.press("Enter")
        assert button.get_attribute("aria-expanded") == "true"
        assert page.locator("#mainnav a", has_text="Költségek").is_visible()
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
    finally:  # the page is shared by the module's tests
        page.set_viewport_size({"width": 1280, "height": HEIGHT})


@pytest.mark.parametrize(("lang", "width"), [("hu", 1280), ("en", 1280), ("hu", 360)])
def test_axe_finds_no_moderate_serious_or_critical_violation_on_any_page(screens, lang, width):
    axe = Axe()
    found, impacts = [], {}
    for name in PAGE_NAMES:
        page = _open(screens, name, lang)
        page.set_viewport_size({"width": width, "height": HEIGHT})
        for violation in axe.run(page).response["violations"]:
            impacts[violation["impact"]] = impacts.get(violation["impact"], 0) + 1
            print(f"axe {lang} {name}: {violation['impact']} {violation['id']}")
            if violation["impact"] in BLOCKING:
                targets = [node["target"] for node in violation["nodes"]][:3]
                found.append(f"{name}: {violation['impact']} {violation['id']} {targets}")
    print(f"axe {lang}: violated rules by impact over {len(PAGE_NAMES)} pages: {impacts}")
    page.set_viewport_size({"width": 1280, "height": HEIGHT})  # the page is the module's
    assert not found, "\n".join(found)


OBSCURED_JS = """() => {
  const bar = document.querySelector('.form-bar'), el = document.activeElement;
  if (!bar || !el || el === document.body || bar.contains(el)) return null;
  const a = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
  // Covered: under the bar in both directions (the document beside the form is not).
  const across = a.right > b.left && a.left < b.right;
  return {label: el.name || el.id || el.tagName,
          hidden: across && a.bottom > b.top && a.top < b.bottom};
}"""


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("name", ["income-edit", "expense-edit"])
def test_the_sticky_save_bar_never_covers_the_field_with_the_focus(screens, name, width):
    page = _open(screens, name)
    try:
        page.set_viewport_size({"width": width, "height": 740})
        page.reload()
        covered = set()
        for _ in range(80):
            page.keyboard.press("Tab")
            focused = page.evaluate(OBSCURED_JS)
            if focused and focused["hidden"]:
                covered.add(focused["label"])
        assert not covered, covered
    finally:  # the page is shared by the module's tests
        page.set_viewport_size({"width": 1280, "height": HEIGHT})


ALIGNMENT_JS = """() => {
  const shown = el => el.checkVisibility() && el.getBoundingClientRect().width > 1;
  const inset = el => el.getBoundingClientRect().left + parseFloat(getComputedStyle(el).paddingLeft)
    - el.closest('.panel').getBoundingClientRect().left;
  const left = [...document.querySelectorAll('th.num')].filter(shown)
    .filter(th => getComputedStyle(th).textAlign !== 'right')
    .map(th => `figure column titled on the left: "${th.innerText.trim()}"`);
  const flush = [...document.querySelectorAll('.panel h2, .panel > p, .panel > .actions')]
    .filter(shown).filter(el => inset(el) < 8)
    .map(el => `on the panel's edge: "${el.innerText.trim().slice(0, 40)}"`);
  const loose = [...document.querySelectorAll('td, th')].filter(shown)
    .filter(cell => getComputedStyle(cell).display !== 'table-cell')
    .map(cell => `a table cell out of its column: .${cell.className}`);
  return left.concat(flush, [...new Set(loose)]);
}"""


def test_figure_columns_are_titled_on_the_right_panel_titles_stand_inside_and_cells_stay_cells(
        screens):
    found = []
    for name in PAGE_NAMES:
        page = _open(screens, name)
        found += [f"{name}: {problem}" for problem in page.evaluate(ALIGNMENT_JS)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", ["income-list", "review-screen"])
def test_every_tab_stop_shows_a_focus_ring(screens, name):
    page = _open(screens, name)
    page.set_viewport_size({"width": 1280, "height": HEIGHT})
    page.reload()
    seen, missing = [], []
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUS_RING_JS)
        if focused is None:
            continue
        seen.append(focused["label"])
        if not focused["ring"]:
            missing.append(focused["label"])
    assert len(set(seen)) >= 10, seen
    assert not missing, missing


def test_without_javascript_the_phone_header_shows_the_whole_navigation(browser, bookdesk_url,
                                                                         seeded):
    context = browser.new_context(base_url=bookdesk_url, locale="hu-HU",
                                  java_script_enabled=False,
                                  viewport={"width": 360, "height": HEIGHT})
    page = context.new_page()
    sign_in(page, seeded.company)
    assert page.locator("button.navtoggle").is_hidden()
    assert page.locator("#mainnav a", has_text="Költségek").is_visible()
    assert page.locator(".topbar__logout button").is_visible()
    assert page.evaluate(PAGE_WIDTH_JS)[0] <= 360
    context.close()


@pytest.mark.parametrize("name", ["income-new", "expense-edit", "partner-edit", "settings"])
def test_forms_take_one_column_on_a_phone(screens, name):
    page = _open(screens, name)
    page.set_viewport_size({"width": 360, "height": HEIGHT})
    page.reload()
    lefts = page.eval_on_selector_all(
        "form .field", "els => [...new Set(els.filter(e => e.checkVisibility() && !e.parentElement"
        ".closest('.field, table')).map(e => Math.round(e.getBoundingClientRect().left)))]")
    page.set_viewport_size({"width": 1280, "height": HEIGHT})
    assert lefts and len(lefts) == 1, lefts


@pytest.mark.parametrize("name", ["tax-new", "salary-new"])
def test_grid_inputs_are_labelled_with_their_column_and_their_own_row(screens, name):
    page = _open(screens, name)
    labels = page.eval_on_selector_all(
        "tbody[data-rows] tr[data-row]:nth-of-type(3) [aria-label]",
        "els => els.map(e => e.getAttribute('aria-label'))")
    cells = [label.split(" · ") for label in labels if " · " in label]
    assert len(cells) >= 3, labels
    assert all(re.search(r"\b3\b", row) for _column, row in cells), labels
    assert len({column for column, _row in cells}) == len(cells), labels
