"""OAuth2 sign-in in the browser: the login page's button, the sandbox's consent page, back to
Bookdesk's practice page with one row per company of the user; screenshots kept in
tests/artifacts/oauth/.

Bookdesk runs here on its own port, registered in the sandbox as an OAuth2 client for that
port's callback (the session-wide e2e server has no OAuth2 client).
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app
from tests.app.test_practice_page import expected, number, seed
from tests.conftest import Api
from tests.e2e.conftest import _watched_page
from tests.support.oauth import oauth_client, oauth_user
from tests.support.processes import free_port


@pytest.fixture(scope="module")
def oauth_bookdesk(sandbox_url, tmp_path_factory) -> str:
    """A live Bookdesk that signs in through the sandbox's authorization server."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    registered = oauth_client(sandbox_url, f"{base}/oauth/callback")
    app = create_app({
        "TESTING": True, "SECRET_KEY": "e2e-oauth-secret", "UPSTREAM_URL": sandbox_url,
        "INSTANCE_PATH": str(tmp_path_factory.mktemp("bookdesk-oauth") / "instance"),
        "OAUTH_CLIENT_ID": registered["client_id"],
        "OAUTH_CLIENT_SECRET": registered["client_secret"], "DEFAULT_LOCALE": "en"})
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, name="bookdesk-oauth", daemon=True).start()
    yield base
    server.shutdown()


@pytest.fixture
def oauth_page(browser, oauth_bookdesk):
    """A watched page on the OAuth2-enabled Bookdesk."""
    page = _watched_page(browser, oauth_bookdesk)
    yield page
    page.context.close()


def test_sign_in_with_the_accounting_service_and_open_the_practice_page(
        oauth_page, oauth_bookdesk, company, make_company, sandbox_url):
    other = make_company()
    seed(Api(sandbox_url, company), late=2, review=1, open_expenses=2)
    seed(Api(sandbox_url, other), late=1, review=2, open_expenses=4)
    user = oauth_user(sandbox_url, [company.id, other.id], first_name="Éva", last_name="Oauth")
    page = oauth_page
    errors = []
    page.on("console", lambda m: errors.append((m.text, m.location.get("url"))))
    page.goto("/login")
    page.click("#oauth-sign-in")
    page.wait_for_url(re.compile(re.escape(sandbox_url) + r"/oauth/authorize/"))
    page.check(f"input[name=user][value='{user['id']}']")
    page.click("button[value=allow]")
    page.wait_for_url(re.compile(re.escape(oauth_bookdesk) + r"/practice$"))

    rows = page.locator("#practice tbody tr")
    assert sorted(rows.evaluate_all("rows => rows.map(r => r.dataset.company)")) == \
        sorted([str(company.id), str(other.id)])
    for each in (company, other):
        cell = page.locator(f"tr[data-company='{each.id}'] [data-figure=unprocessed]")
        assert number(cell.inner_text()) == expected(Api(sandbox_url, each))["unprocessed"]
        needs = page.locator(f"tr[data-company='{each.id}'] [data-figure=review]").inner_text()
        assert needs in {"API token needed", "API token szükséges"}
    assert "Oauth Éva" in page.locator(".topbar__user").inner_text()
    folder = Path(__file__).resolve().parents[1] / "artifacts" / "oauth"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "oauth-practice.png"), full_page=True)
    page.click(f"tr[data-company='{other.id}'] th a")
    page.wait_for_url(re.compile(rf"/c/{other.id}/$"))
    assert other.name in page.locator("h1").inner_text()
    page.screenshot(path=str(folder / "oauth-company-dashboard.png"), full_page=True)
    # The sandbox's consent page has no icon: the browser's /favicon.ico there is not Bookdesk's.
    for text, url in errors:
        if url == f"{sandbox_url}/favicon.ico" and text in page.bookdesk_log.console_errors:
            page.bookdesk_log.console_errors.remove(text)
    page.bookdesk_log.assert_clean()


def test_the_sign_in_page_with_both_ways_in_fits_a_phone_and_its_cards_line_up(oauth_page):
    page = oauth_page
    for lang in ("hu", "en"):
        page.goto(f"/lang/{lang}?next=/login")
        page.set_viewport_size({"width": 360, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
        button = page.locator("#oauth-sign-in").bounding_box()
        assert button["x"] >= 0 and button["x"] + button["width"] <= 360, (lang, button)
        page.set_viewport_size({"width": 1280, "height": 800})
        cards = page.locator(".auth__card").evaluate_all(
            "cards => cards.map(c => c.getBoundingClientRect().width)")
        assert len(cards) >= 2 and max(cards) - min(cards) < 1, (lang, cards)
