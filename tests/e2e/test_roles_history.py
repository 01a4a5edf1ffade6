"""Roles and history in a real browser: a viewer finds no enabled write control on any page; a
write the API refuses comes back with every typed value and the reason, said once; Back,
Forward and reload after htmx navigation show a full, styled page.

Screenshots: tests/artifacts/roles/<name>.png.
"""
from __future__ import annotations

import re

import pytest
import requests

from tests.conftest import create_company
from tests.e2e.conftest import sign_in
from tests.e2e.screens_support import page_types, seed

SHOTS = __import__("pathlib").Path(__file__).resolve().parents[1] / "artifacts" / "roles"
VIEWER_PAGES = ("dashboard", "income-list", "income-detail", "income-edit", "review-queue",
                "review-screen", "expense-list", "expense-detail", "expense-edit",
                "partner-list", "partner-edit", "tax-list", "salary-list", "catalogue",
                "settings", "policy-editor", "bank", "vat-summary", "month-end", "partner-card",
                "review-log", "documents")

# Every control that writes: submit buttons of POST forms (not sign-out, the policy editor's
# "my role has changed" and the review's Skip, which change nothing upstream; not the form
# engine's add/remove row), htmx writers (not the live totals), and links styled as buttons
# that open a write page.
WRITE_CONTROLS_JS = r"""
() => {
  const exempt = (el) => {
    const form = el.form || el.closest('form');
    const action = (el.getAttribute('formaction') || (form && form.getAttribute('action')) || '');
    return /\/logout$|\/unlock$/.test(action) || el.value === 'skip' || el.name === 'table_op';
  };
  const posting = (el) => {
    const form = el.form || el.closest('form');
    return form && (form.getAttribute('method') || '').toLowerCase() === 'post';
  };
  const found = [];
  document.querySelectorAll('button, input[type=submit]').forEach((el) => {
    const type = (el.getAttribute('type') || 'submit').toLowerCase();
    if (type !== 'submit' || !posting(el) || exempt(el)) return;
    found.push(el);
  });
  // Live totals post the form to be computed, not stored.
  document.querySelectorAll('[hx-post], [hx-patch], [hx-put], [hx-delete]').forEach((el) => {
    const url = el.getAttribute('hx-post') || '';
    if (el.tagName !== 'FORM' && !exempt(el) && !/\/totals$/.test(url)) found.push(el);
  });
  document.querySelectorAll('a.button, main a[href*="/cancel"]').forEach((el) => {
    if (/\/(edit|new|cancel|delete|upload)(\?|$)|storno_of=/.test(el.getAttribute('href') || '')) {
      found.push(el);
    }
  });
  return found.map((el) => {
    const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    const described = ids.map((id) => (document.getElementById(id) || {}).textContent || '')
      .join(' ').trim();
    return {html: el.outerHTML.slice(0, 160), tag: el.tagName, disabled: !!el.disabled,
            reason: (el.getAttribute('title') || '').trim() && described};
  });
}
"""

# The reason, as the Hungarian page (the default language) shows it.
REFUSED_HU = "A könyvelési szolgáltatás ezt a műveletet elutasította az Ön tokenjével."
REFUSED_HU_WHOLE = (REFUSED_HU + " Lehet, hogy a szerepköre ebben a cégben nem engedi (például "
                    "megtekintő nem módosíthat tételeket).")

FULL_PAGE_JS = """
() => ({
  html: !!document.documentElement && document.documentElement.tagName === 'HTML',
  nav: !!document.querySelector('nav.mainnav'),
  topbar: !!document.querySelector('header.topbar'),
  styled: [...document.styleSheets].some((s) => (s.href || '').includes('/css/app')),
  footer: !!document.querySelector('footer.footer'),
  headings: document.querySelectorAll('h1').length,
})
"""


@pytest.fixture(scope="module")
def seeded(sandbox_url):
    """One company with a record of every kind, shared by the tests that only read it."""
    return seed(sandbox_url, create_company(sandbox_url))


@pytest.fixture
def own(sandbox_url):
    """A company of the test's own with a record of every kind: for tests that add records,
    so that no other test depends on the order they run in."""
    return seed(sandbox_url, create_company(sandbox_url))


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _assert_full_page(page, what: str) -> None:
    state = page.evaluate(FULL_PAGE_JS)
    assert all(state[key] for key in ("html", "nav", "topbar", "styled", "footer")), (what, state)
    assert state["headings"] == 1, (what, state)


@pytest.mark.parametrize("name", VIEWER_PAGES)
def test_a_viewer_sees_no_enabled_write_control(page, seeded, name):
    sign_in(page, seeded.company, role="viewer")
    page.goto(page_types(seeded)[name])
    controls = page.evaluate(WRITE_CONTROLS_JS)
    enabled = [c["html"] for c in controls if not c["disabled"] or c["tag"] == "A"]
    assert enabled == [], enabled
    assert all(c["reason"] for c in controls), [c["html"] for c in controls if not c["reason"]]
    if name in ("income-edit", "expense-list", "review-screen"):
        _shot(page, f"viewer-{name}")


def _refused_save(page, seeded, edit: str, typed: dict) -> None:
    """As a viewer whose refusal is forgotten ("my role has changed"), type and save on edit."""
    sign_in(page, seeded.company, role="viewer")
    page.goto(f"/c/{seeded.company.id}/policies/")
    page.click("form[action$='/unlock'] button[type=submit]")
    page.wait_for_load_state("load")
    page.goto(edit)
    for name, value in typed.items():
        page.fill(f"[name={name}]", value)
    page.click("#save")
    page.wait_for_load_state("load")
    assert page.url.endswith(edit), page.url


def test_a_refused_income_save_keeps_every_typed_value(page, seeded):
    c = f"/c/{seeded.company.id}"
    typed = {"note": "Begépelt megjegyzés – ő és ű", "secondary_id": "MÁSODIK-42"}
    _refused_save(page, seeded, f"{c}/incomes/{seeded.income}/edit", typed)
    for name, value in typed.items():
        assert page.input_value(f"[name={name}]") == value, name
    assert page.get_by_text(REFUSED_HU).count() >= 1
    _assert_full_page(page, "refused save")
    assert page.locator("#save").is_disabled(), "Save is disabled once the refusal is known"
    _shot(page, "refused-income-save")


# The banners the page shows in its main part (alerts, notes), as their text.
BANNERS_JS = """() => [...document.querySelectorAll('main :is(.alert, [role=alert], [role=note])')]
    .filter((el) => el.offsetParent !== null && !el.closest('dialog'))
    .map((el) => el.innerText.trim())"""


@pytest.mark.parametrize("area", ["incomes", "expenses"])
def test_a_refused_save_says_why_in_one_banner_and_keeps_the_typed_note(page, seeded, area):
    record = seeded.income if area == "incomes" else seeded.expense
    typed = {"note": "Begépelt megjegyzés – ő és ű"}
    _refused_save(page, seeded, f"/c/{seeded.company.id}/{area}/{record}/edit", typed)
    assert page.evaluate(BANNERS_JS) == [REFUSED_HU_WHOLE]
    assert page.input_value("[name=note]") == typed["note"]
    described = page.locator("#save").get_attribute("aria-describedby")
    assert page.locator(f"#{described}").count() == 1, "the disabled Save still says why"
    _assert_full_page(page, f"refused {area} save")


def test_a_page_with_its_own_read_only_banner_shows_it_alone(page, seeded):
    c = f"/c/{seeded.company.id}"
    _refused_save(page, seeded, f"{c}/incomes/{seeded.income}/edit", {"note": "Megjegyzés"})
    page.goto(f"{c}/policies/")
    assert page.evaluate(BANNERS_JS) == [page.inner_text("#readonly-reason").strip()]
    page.goto(f"{c}/settings/")
    assert page.evaluate(BANNERS_JS) == [page.inner_text("#settings-read-only").strip()]


def _back_forward_reload(page, what: str, htmx_url: str) -> None:
    page.click("nav.mainnav a[href$='/incomes/']")
    page.wait_for_load_state("load")
    page.go_back()
    page.wait_for_url(htmx_url)
    page.wait_for_load_state("load")
    _assert_full_page(page, f"{what}: back")
    page.go_forward()
    page.wait_for_load_state("load")
    _assert_full_page(page, f"{what}: forward")
    page.go_back()
    page.wait_for_url(htmx_url)
    page.reload()
    _assert_full_page(page, f"{what}: reload")


def test_a_filter_sent_again_unchanged_takes_one_back_press(page, seeded):
    sign_in(page, seeded.company)
    start = f"/c/{seeded.company.id}/incomes/"
    page.goto(start)
    page.select_option("#paid_status", "2")  # runs the filter at once
    page.wait_for_url(re.compile(r"paid_status=2"))
    page.wait_for_load_state("networkidle")
    filtered, entries = page.url, page.evaluate("history.length")
    with page.expect_response(lambda response: "paid_status=2" in response.url):
        page.click("form[role=search] button[type=submit]")  # the same filter again
    page.wait_for_load_state("networkidle")
    assert page.url == filtered
    assert page.evaluate("history.length") == entries, "no second entry for the same filter"
    page.go_back()
    page.wait_for_url(re.compile(r"/incomes/$"))
    _assert_full_page(page, "back from a filter sent twice")


def test_back_after_a_partner_search_shows_the_full_page(page, seeded):
    sign_in(page, seeded.company)
    page.goto(f"/c/{seeded.company.id}/partners/")
    page.fill("#partner-q", "Kft")
    page.wait_for_url(re.compile(r"q=Kft"))
    page.wait_for_load_state("networkidle")
    url = page.url
    _back_forward_reload(page, "partner search", url)
    assert page.input_value("#partner-q") == "Kft", "the URL reproduces the search"
    _shot(page, "history-partner-search")


def test_back_after_a_list_filter_and_pagination_shows_the_full_page(page, own, sandbox_url):
    company = own.company
    for number in range(21):  # one more than the smallest page
        requests.post(f"{sandbox_url}/_sandbox/expenses/", timeout=10, json={
            "company_id": company.id, "invoice_number": f"LAPOZAS-{number}",
            "partner_name": "Szállító Zrt.", "paid_status": 1}).raise_for_status()
    sign_in(page, company)
    page.goto(f"/c/{company.id}/expenses/?page_size=20")
    page.fill("input[name=q]", "LAPOZAS")
    page.press("input[name=q]", "Enter")
    page.wait_for_url(re.compile(r"q=LAPOZAS"))
    page.wait_for_load_state("networkidle")
    page.click("#expense-list a[rel=next]")
    page.wait_for_url(re.compile(r"cursor="))
    page.wait_for_load_state("networkidle")
    url = page.url
    assert "q=LAPOZAS" in url and "page_size=20" in url, "the URL keeps the filter"
    _back_forward_reload(page, "expense filter and pagination", url)
    assert page.input_value("input[name=q]") == "LAPOZAS", "the URL reproduces the filter"
    page.go_back()
    page.wait_for_url(lambda address: "q=LAPOZAS" in address and "cursor=" not in address)
    _assert_full_page(page, "back to the first filtered page")


def test_back_after_the_review_moves_on_shows_the_full_page(page, own, sandbox_url):
    company = own.company
    requests.post(f"{sandbox_url}/_sandbox/incomes/", timeout=10, json={
        "company_id": company.id, "partner_name": "Második Vevő Kft.",
        "invoice_number": "REVIEW-2", "needs_review": True, "review_done": False,
    }).raise_for_status()
    sign_in(page, company)
    page.goto(f"/c/{company.id}/review/{own.review}")
    first = page.url
    page.locator("#review-next, #review-prev").first.click()  # the other income of two
    page.wait_for_url(lambda address: address != first and "/review/" in address)
    page.wait_for_load_state("networkidle")
    _back_forward_reload(page, "review next", page.url)
    page.go_back()
    page.wait_for_url(first)
    _assert_full_page(page, "back to the first income of the review")
