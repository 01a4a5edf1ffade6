"""Browser checks of the foundation: sign-in, dashboard, language, company switch, sign-out.

The harness fails any test whose pages hit a CSP violation; each test also asserts a clean
console (no errors, no uncaught script errors) on every page it visited. One test walks every
GET route of app.url_map in the browser, so new pages are held to the same rule.
"""
from __future__ import annotations

import re
from datetime import timedelta

import requests

from app.numbers import company_today
from tests.e2e.conftest import sign_in
from tests.support.routes import RouteSampler, SampleContext

# Static files and the language redirect: nothing for the browser to render.
SKIP_IN_BROWSER = {"static", "i18n.switch_language"}


def _make_income(sandbox_url: str, company, **fields) -> None:
    response = requests.post(f"{sandbox_url}/_sandbox/incomes/", timeout=10,
                             json={"company_id": company.id, **fields})
    assert response.status_code == 201, response.text


def _stat(page, key: str) -> str:
    return page.inner_text(f"#stat-{key} .stat__value").strip()


def test_harness_records_csp_violations_from_the_page(page):
    page.goto("/login")
    page.evaluate("() => { const s = document.createElement('script');"
                  " s.textContent = 'window.injected = 1'; document.body.appendChild(s); }")
    page.wait_for_function("() => true")
    page.wait_for_timeout(200)
    violations = page.bookdesk_log.csp_violations
    assert violations and page.evaluate("() => window.injected") is None
    violations.clear()  # this test proves detection; the harness would fail it otherwise


def test_sign_in_through_the_form_shows_the_company_dashboard(signed_in_page, company, browser_log):
    page = signed_in_page(company)
    assert page.url.endswith(f"/c/{company.id}/")
    assert company.name in page.inner_text("h1")
    assert company.name in page.inner_text(".switcher__name")
    assert page.locator("input[name=token]").count() == 0
    browser_log.assert_clean()


def test_dashboard_counts_incomes_to_review_unpaid_and_overdue(
        signed_in_page, company, sandbox_url, browser_log):
    overdue_day = (company_today() - timedelta(days=10)).isoformat()
    _make_income(sandbox_url, company, needs_review=True, review_done=False)
    _make_income(sandbox_url, company, needs_review=True, review_done=False)
    _make_income(sandbox_url, company, due_at=overdue_day, issued_at=overdue_day,
                 fulfilled_at=overdue_day)
    page = signed_in_page(company)
    assert (_stat(page, "needs_review"), _stat(page, "unpaid"), _stat(page, "overdue")) == \
        ("2", "3", "1")
    assert page.get_attribute("#stat-needs_review", "href") == f"/c/{company.id}/review/"
    assert page.locator("section[aria-labelledby=recent-title] tbody tr").count() == 3
    browser_log.assert_clean()


def test_language_switch_changes_the_page_text_and_back(signed_in_page, company, browser_log):
    page = signed_in_page(company)
    sign_out = page.locator(".topbar__logout button")
    assert page.get_attribute("html", "lang") == "hu"
    assert sign_out.inner_text() == "Kijelentkezés"
    page.click(".langswitch a[lang=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.url.endswith(f"/c/{company.id}/")
    assert sign_out.inner_text() == "Sign out"
    page.click(".langswitch a[lang=hu]")
    page.wait_for_selector("html[lang=hu]")
    assert sign_out.inner_text() == "Kijelentkezés"
    browser_log.assert_clean()


def test_company_switcher_moves_between_two_signed_in_companies(
        signed_in_page, company, make_company, browser_log):
    other = make_company(name="Második Kft.")
    page = signed_in_page(company)
    page.click(".switcher__current")
    page.click(".switcher a[href='/login']")
    sign_in(page, other)
    assert "Második Kft." in page.inner_text("h1")
    page.click(".switcher__current")
    page.click(f".switcher a[href='/c/{company.id}/']")
    page.wait_for_url(re.compile(rf"/c/{company.id}/$"))
    assert company.name in page.inner_text("h1")
    assert company.name in page.inner_text(".switcher__name")
    browser_log.assert_clean()


def test_sign_out_returns_to_login_and_company_pages_need_sign_in_again(
        signed_in_page, company, browser_log):
    page = signed_in_page(company)
    page.click(".topbar__logout button")
    page.wait_for_url(re.compile(r"/login$"))
    assert page.locator("input[name=token]").count() == 1
    page.goto(f"/c/{company.id}/")
    assert re.search(r"/login\?", page.url), page.url
    assert page.locator("input[name=token]").count() == 1
    browser_log.assert_clean()


def test_upstream_down_shows_the_friendly_page_with_the_request_id(
        signed_in_page, company, faults):
    page = signed_in_page(company)
    faults.add(path="*", kind="reset")
    response = page.goto(f"/c/{company.id}/")
    assert response.status == 503
    request_id = response.headers["x-request-id"]
    assert request_id in page.inner_text(".error-page")
    assert "Traceback" not in page.content()
    faults.clear()
    page.click(".error-page a.button--primary")
    page.wait_for_selector("#stat-needs_review")


def test_every_page_renders_in_the_browser_without_csp_violations_or_script_errors(
        signed_in_page, company, bookdesk_server, sandbox_url, browser_log):
    page = signed_in_page(company)
    sampler = RouteSampler(bookdesk_server.app, SampleContext(sandbox_url, company))
    visited = []
    for route in sampler.get_routes():
        if route.endpoint in SKIP_IN_BROWSER:
            continue
        probe = page.context.request.get(route.path, max_redirects=0)
        assert probe.status < 500, f"{route.path} answered {probe.status}"
        if probe.status == 204 or not probe.headers.get("content-type", "").startswith(
                "text/html"):
            continue  # no content, a download or a fragment-only endpoint: nothing to render
        page.goto(route.path)
        visited.append(route.path)
    assert f"/c/{company.id}/" in visited
    errors = [e for e in browser_log.console_errors if not e.startswith("Failed to load resource")]
    assert not errors + browser_log.page_errors, errors + browser_log.page_errors
