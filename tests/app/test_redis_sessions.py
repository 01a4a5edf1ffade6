"""Sessions in a real Redis, shared by two Bookdesk processes (gunicorn, one worker each).

A browser (requests.Session) signs in through process A with the real form; process B must see
the session, and a sign-out through B must be honoured by A. No sticky sessions needed.
"""
from __future__ import annotations

import pytest
import redis
import requests

from tests.app.conftest import csrf_token, login_form
from tests.support.processes import bookdesk_process, redis_server  # noqa: F401 (fixture)

pytestmark = [pytest.mark.redis, pytest.mark.xdist_group("redis")]

SECRET = "shared-secret-of-both-processes"
COOKIE = "bookdesk_session"
PREFIX = "bookdesk:session:"


@pytest.fixture(scope="module")
def processes(redis_server, sandbox_url, tmp_path_factory):  # noqa: F811 (fixture)
    """Two Bookdesk processes, A and B, sharing one Redis and one secret key."""
    env = {"BOOKDESK_SECRET_KEY": SECRET, "BOOKDESK_UPSTREAM_URL": sandbox_url,
           "BOOKDESK_SESSION_REDIS_URL": redis_server.url}
    folder = tmp_path_factory.mktemp("bookdesk-procs")
    with bookdesk_process(folder / "a", env) as a, bookdesk_process(folder / "b", env) as b:
        yield a.url, b.url


@pytest.fixture
def store(redis_server):  # noqa: F811 (fixture)
    """A Redis client on the sessions' database."""
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()


def _sign_in(browser: requests.Session, base: str, company, company_id=None) -> None:
    data = login_form(browser.get(f"{base}/login").text, company, company_id=company_id)
    response = browser.post(f"{base}/login", data=data, allow_redirects=False)
    assert response.status_code == 303, response.text[:500]


def _is_signed_in(browser_or_cookies, base: str, company) -> bool:
    get = browser_or_cookies.get if isinstance(browser_or_cookies, requests.Session) else \
        lambda url, **kw: requests.get(url, cookies=browser_or_cookies, **kw)
    page = get(f"{base}/c/{company.id}/", allow_redirects=False, timeout=10)
    if page.status_code == 200:
        assert company.name in page.text
        return True
    assert page.status_code == 303 and page.headers["Location"].startswith("/login")
    return False


def test_sign_in_through_one_process_is_seen_by_the_other_and_sign_out_by_both(
        processes, company):
    a, b = processes
    browser = requests.Session()
    _sign_in(browser, a, company)
    old_cookie = {COOKIE: browser.cookies[COOKIE]}
    assert _is_signed_in(browser, b, company)
    page = browser.get(f"{b}/c/{company.id}/").text
    logout = browser.post(f"{b}/logout", data={"csrf_token": csrf_token(page)},
                          allow_redirects=False)
    assert logout.status_code == 303
    assert not _is_signed_in(browser, a, company)
    assert not _is_signed_in(old_cookie, a, company)
    assert not _is_signed_in(old_cookie, b, company)


def test_session_record_is_in_redis_with_the_token_and_gone_after_sign_out(
        processes, company, store):
    a, b = processes
    browser = requests.Session()
    _sign_in(browser, a, company)
    token = company.tokens["admin"].encode()
    holding = [key for key in store.scan_iter(f"{PREFIX}*") if token in store.get(key)]
    assert len(holding) == 1
    assert token.decode() not in browser.cookies[COOKIE]
    assert 0 < store.ttl(holding[0]) <= 12 * 3600
    page = browser.get(f"{a}/c/{company.id}/").text
    browser.post(f"{b}/logout", data={"csrf_token": csrf_token(page)}, allow_redirects=False)
    assert not store.exists(holding[0])


def test_company_and_language_chosen_in_one_process_show_in_the_other(
        processes, company, make_company):
    a, b = processes
    other = make_company(name="Másik Kft.")
    browser = requests.Session()
    _sign_in(browser, a, company)
    _sign_in(browser, b, other)
    browser.get(f"{b}/lang/en", allow_redirects=False)
    page = browser.get(f"{a}/c/{company.id}/").text
    assert '<html lang="en">' in page
    assert "Másik Kft." in page and company.name in page
    assert _is_signed_in(browser, a, other)
