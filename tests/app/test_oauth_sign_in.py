"""OAuth2 sign-in against the sandbox's authorization server, over real HTTP.

Authorization code with S256 PKCE through the login page, the sandbox's consent page and the
callback; the user's companies from /2/companies, switched by the company header alone with one
access token; the refresh before expiry, once under concurrency; the tokens kept only in the
server-side session store.
"""
from __future__ import annotations

import html
import re
import threading
import time
from urllib.parse import urlsplit

import pytest
import requests
from flask import g, session

from app import create_app
from app.auth import WRITE, current_actor, remember_refusal
from app.auth import session as session_module
from app.auth import views as auth_views
from app.auth.flow import REFUSED_KEY
from app.upstream import company as company_api
from app.upstream import oauth as upstream_oauth
from app.upstream.errors import AuthenticationError, Unavailable
from tests.app.conftest import csrf_token, page_csrf, session_cookie
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.conftest import Api, in_flight_together
from tests.support.oauth import consent, expire, oauth_client, oauth_user, query_of
from tests.support.processes import (
    free_port,
    redis_server,  # noqa: F401 (fixture)
)

REDIRECT = "http://localhost/oauth/callback"


@pytest.fixture
def oauth_app(app_config, sandbox_url):
    """Bookdesk registered as a sandbox OAuth2 client for the test client's callback URL."""
    registered = oauth_client(sandbox_url, REDIRECT)
    # The tests move the clock close to the token's hour; the session must outlive that.
    return create_app({**app_config, "OAUTH_CLIENT_ID": registered["client_id"],
                       "OAUTH_CLIENT_SECRET": registered["client_secret"],
                       "SESSION_IDLE_MINUTES": 600})


@pytest.fixture
def two_companies(company, make_company):
    """Two fresh companies; each test makes the sandbox user who administers both."""
    other = make_company()
    return company, other


def start_sign_in(client):
    """Press "Sign in with the accounting service": the redirect to the authorize URL."""
    page = client.get("/login")
    assert 'id="oauth-sign-in"' in page.get_data(as_text=True)
    started = client.post("/login/oauth", data={"csrf_token": csrf_token(page.get_data(True))})
    assert started.status_code == 302
    return started.headers["Location"]


def oauth_sign_in(client, user_id: int):
    """The whole flow: Bookdesk -> consent page (the user chooses themself) -> callback."""
    back = consent(start_sign_in(client), user_id)
    parts = urlsplit(back)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT
    return client.get(f"{parts.path}?{parts.query}")


def stored_pair(app, client) -> tuple[str, dict]:
    """The session's grant key and the token pair the server-side store holds for it."""
    with client.session_transaction() as sess:
        grants = {entry["grant"] for entry in sess["companies"].values()}
    assert len(grants) == 1, "every company of one OAuth2 sign-in shares one grant"
    grant = grants.pop()
    with app.app_context():
        return grant, session_module.get_secret(grant)


def bearer_get(sandbox_url: str, path: str, token: str, company_id: int | None = None):
    """A /2/ read with a Bearer token (and the company header when given)."""
    headers = {"Authorization": f"Bearer {token}"}
    if company_id is not None:
        headers["Service-Company-Id"] = str(company_id)
    return requests.get(f"{sandbox_url}{path}", headers=headers, timeout=10)


def test_authorization_code_with_pkce_signs_in_every_company_of_the_user(
        oauth_app, two_companies, sandbox_url, sandbox_log):
    first, second = two_companies
    user = oauth_user(sandbox_url, [first.id, second.id])
    client = oauth_app.test_client()
    authorize = start_sign_in(client)
    asked = query_of(authorize)
    assert authorize.startswith(f"{sandbox_url}/oauth/authorize/")
    assert asked["response_type"] == "code" and asked["redirect_uri"] == REDIRECT
    assert asked["code_challenge_method"] == "S256" and len(asked["code_challenge"]) >= 43
    assert "code_verifier" not in authorize, "the PKCE verifier stays on the server"
    back = consent(authorize, user["id"])
    assert query_of(back)["state"] == asked["state"]
    landed = client.get(f"{urlsplit(back).path}?{urlsplit(back).query}")

    assert landed.status_code == 303 and landed.headers["Location"].endswith("/practice")
    practice = client.get("/practice").get_data(as_text=True)
    assert first.name in practice and second.name in practice
    issued = sandbox_log.entries(method="POST", path="/oauth/token/")
    assert len(issued) == 1 and issued[0]["status"] == 200
    listed = sandbox_log.entries(method="GET", path="/2/companies/")
    assert len(listed) == 1 and listed[0]["status"] == 200
    assert not {"Service-Company-Id", "Quick-Company-Id"} & set(listed[0]["headers"])


def test_companies_are_switched_by_the_company_header_with_one_access_token(
        oauth_app, two_companies, sandbox_url, sandbox_log):
    first, second = two_companies
    user = oauth_user(sandbox_url, [first.id, second.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    grant, before = stored_pair(oauth_app, client)
    sandbox_log.reset()

    for company in (first, second):
        page = client.get(f"/c/{company.id}/")
        assert page.status_code == 200, page.get_data(as_text=True)[:500]
        assert company.name in page.get_data(as_text=True)
    reads = [read for company in (first, second)
             for read in sandbox_log.entries(method="GET", path="/2/expenses", sent_for=company.id)]
    assert {(r["company_id"], r["headers"].get("Service-Company-Id")) for r in reads} == \
        {(first.id, str(first.id)), (second.id, str(second.id))}
    assert not sandbox_log.entries(method="POST", path="/oauth/token/"), "no new token was needed"
    assert stored_pair(oauth_app, client) == (grant, before)
    # The one stored token is what reads both companies: only the header differs.
    for company in (first, second):
        answer = bearer_get(sandbox_url, "/2/company-info/", before["access_token"], company.id)
        assert answer.status_code == 200 and answer.json()["id"] == company.id


def test_denied_consent_returns_to_the_login_page_signed_out(oauth_app, company, sandbox_url):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    back = consent(start_sign_in(client), user["id"], decision="deny")
    answer = client.get(f"{urlsplit(back).path}?{urlsplit(back).query}", follow_redirects=True)
    assert "did not complete" in answer.get_data(as_text=True)
    with client.session_transaction() as sess:
        assert not sess.get("companies")


def test_login_page_offers_both_sign_ins_only_when_a_client_is_configured(app, oauth_app):
    plain = app.test_client().get("/login").get_data(as_text=True)
    both = oauth_app.test_client().get("/login").get_data(as_text=True)
    assert 'name="token"' in plain and 'id="oauth-sign-in"' not in plain
    assert 'name="token"' in both and 'id="oauth-sign-in"' in both


def test_a_v1_page_under_oauth_says_an_api_token_is_needed_and_keeps_the_sign_in(
        oauth_app, company, sandbox_url, sandbox_log):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    sandbox_log.reset()
    page = client.get(f"/c/{company.id}/incomes/")
    assert page.status_code == 403
    assert "API token" in page.get_data(as_text=True)
    assert not sandbox_log.entries(path="/1/", sent_for=company.id), "no Bearer token to /1/"
    assert client.get(f"/c/{company.id}/").status_code == 200, "still signed in"


def _move_clock(monkeypatch, seconds_left: float, pair: dict) -> None:
    """Bookdesk's clock at `seconds_left` before the stored access token expires."""
    offset = pair["expires_at"] - seconds_left - time.time()
    monkeypatch.setattr(session_module, "now", lambda: time.time() + offset)


def test_access_token_is_refreshed_before_it_expires(
        oauth_app, company, sandbox_url, sandbox_log, monkeypatch):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    sandbox_log.reset()
    grant, old = stored_pair(oauth_app, client)
    _move_clock(monkeypatch, 90, old)
    assert client.get(f"/c/{company.id}/").status_code == 200
    assert sandbox_log.entries(path="/2/", sent_for=company.id), "the page's reads are logged"
    assert not sandbox_log.entries(method="POST", path="/oauth/token/"), "90 s left: kept"

    _move_clock(monkeypatch, 30, old)
    sandbox_log.reset()
    assert client.get(f"/c/{company.id}/").status_code == 200
    refreshed = sandbox_log.entries(method="POST", path="/oauth/token/")
    _, new = stored_pair(oauth_app, client)
    assert len(refreshed) == 1 and new["access_token"] != old["access_token"]
    assert new["refresh_token"] != old["refresh_token"], "refresh tokens rotate"
    first_read = min(r["seq"] for r in sandbox_log.entries(path="/2/", sent_for=company.id))
    assert refreshed[0]["seq"] < first_read, "refreshed before the page's first read"
    # The old token had not expired yet: it was refreshed early, then retired by the rotation.
    assert bearer_get(sandbox_url, "/2/companies/", old["access_token"]).status_code == 401
    assert bearer_get(sandbox_url, "/2/companies/", new["access_token"]).status_code == 200


def test_an_access_token_expired_on_the_server_is_refreshed_on_the_next_request(
        oauth_app, company, sandbox_url, monkeypatch):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    _, old = stored_pair(oauth_app, client)
    expire(sandbox_url, old["access_token"])
    _move_clock(monkeypatch, -1, old)
    assert client.get(f"/c/{company.id}/").status_code == 200
    assert stored_pair(oauth_app, client)[1]["access_token"] != old["access_token"]


def test_concurrent_requests_refresh_the_token_once(
        oauth_app, two_companies, sandbox_url, sandbox_log, monkeypatch):
    first, second = two_companies
    user = oauth_user(sandbox_url, [first.id, second.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    _, old = stored_pair(oauth_app, client)
    cookie = session_cookie(client, oauth_app)
    slow_refresh = session_module._refresh

    def refresh_slowly(grant, pair):
        time.sleep(0.3)  # a wide window: without the lock both requests would refresh
        return slow_refresh(grant, pair)

    monkeypatch.setattr(session_module, "_refresh", refresh_slowly)
    _move_clock(monkeypatch, 30, old)
    sandbox_log.reset()
    statuses = _get_together(oauth_app, cookie, [f"/c/{first.id}/", f"/c/{second.id}/",
                                                 f"/c/{first.id}/"])

    assert statuses == [200, 200, 200]
    assert len(sandbox_log.entries(method="POST", path="/oauth/token/")) == 1
    new = stored_pair(oauth_app, client)[1]
    assert new["access_token"] != old["access_token"]


def _get_together(app, cookie: str, paths: list[str]) -> list[int]:
    """GET the paths at the same moment, each from its own client holding the same session."""
    barrier = threading.Barrier(len(paths))
    statuses: list[int | None] = [None] * len(paths)

    def run(index: int, path: str) -> None:
        browser = app.test_client()
        browser.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie, domain="localhost")
        barrier.wait()
        statuses[index] = browser.get(path).status_code

    threads = [threading.Thread(target=run, args=item) for item in enumerate(paths)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return statuses


def test_sign_out_revokes_the_grant_and_deletes_the_stored_tokens(
        oauth_app, company, sandbox_url):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    grant, pair = stored_pair(oauth_app, client)
    client.post("/logout", data={"csrf_token": page_csrf(client, "/practice")})
    with oauth_app.app_context():
        assert session_module.get_secret(grant) is None
    assert bearer_get(sandbox_url, "/2/companies/", pair["access_token"]).status_code == 401


@pytest.mark.redis
@pytest.mark.xdist_group("redis")
def test_with_redis_sessions_the_tokens_live_in_redis_beside_the_session_and_refresh_once(
        app_config, two_companies, sandbox_url, sandbox_log, redis_server,  # noqa: F811
        monkeypatch):
    import redis

    registered = oauth_client(sandbox_url, REDIRECT)
    app = create_app({**app_config, "SESSION_REDIS_URL": redis_server.url,
                      "OAUTH_CLIENT_ID": registered["client_id"],
                      "OAUTH_CLIENT_SECRET": registered["client_secret"],
                      "SESSION_IDLE_MINUTES": 600})
    first, second = two_companies
    client = app.test_client()
    oauth_sign_in(client, oauth_user(sandbox_url, [first.id, second.id])["id"])
    grant, old = stored_pair(app, client)
    store = redis.Redis.from_url(redis_server.url)
    # DUMP may compress a value (LZF), so read each string key as it is stored.
    holding = [key for key in store.scan_iter() if store.type(key) == b"string"
               and old["access_token"].encode() in store.get(key)]
    assert [key.decode() for key in holding] == [session_module.SECRET_PREFIX + grant], \
        "only the grant's record holds the token (not the session record)"
    _move_clock(monkeypatch, 30, old)
    sandbox_log.reset()
    statuses = _get_together(app, session_cookie(client, app),
                             [f"/c/{first.id}/", f"/c/{second.id}/"])
    assert statuses == [200, 200]
    assert len(sandbox_log.entries(method="POST", path="/oauth/token/")) == 1


def test_signing_in_again_replaces_the_grant_and_forgets_the_old_tokens(
        oauth_app, company, sandbox_url):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    old_grant, _ = stored_pair(oauth_app, client)
    oauth_sign_in(client, user["id"])
    new_grant, pair = stored_pair(oauth_app, client)
    assert new_grant != old_grant and pair is not None
    with oauth_app.app_context():
        assert session_module.get_secret(old_grant) is None


def test_a_token_endpoint_that_fails_at_the_code_exchange_returns_to_the_login_page(
        oauth_app, company, sandbox_url, faults):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    back = consent(start_sign_in(client), user["id"])
    faults.add(path="/oauth/token/", method="POST", kind="status", status=503)
    answer = client.get(f"{urlsplit(back).path}?{urlsplit(back).query}", follow_redirects=True)
    assert "did not complete" in answer.get_data(as_text=True)
    with client.session_transaction() as sess:
        assert not sess.get("companies")


@pytest.mark.parametrize("fault", [{"kind": "status", "status": 502},
                                   {"kind": "reset"}])
def test_a_refresh_the_token_endpoint_does_not_answer_is_unavailable(
        oauth_app, faults, fault):
    faults.add(path="/oauth/token/", method="POST", **fault)
    with oauth_app.app_context(), pytest.raises(Unavailable) as raised:
        upstream_oauth.refresh("any-refresh-token")
    assert raised.value.path == "/oauth/token/"


def test_a_refresh_to_a_closed_port_or_past_the_timeout_is_unavailable(
        oauth_app, faults, monkeypatch):
    oauth_app.config["OAUTH_TOKEN_URL"] = f"http://127.0.0.1:{free_port()}/oauth/token/"
    with oauth_app.app_context(), pytest.raises(Unavailable):
        upstream_oauth.refresh("any-refresh-token")
    oauth_app.config["OAUTH_TOKEN_URL"] = oauth_app.config["OAUTH_AUTHORIZE_URL"].replace(
        "/authorize/", "/token/")
    faults.add(path="/oauth/token/", method="POST", kind="latency", latency_ms=1500)
    monkeypatch.setattr(upstream_oauth, "TOKEN_TIMEOUT", (3.05, 0.3))
    with oauth_app.app_context(), pytest.raises(Unavailable):
        upstream_oauth.refresh("any-refresh-token")


def test_a_refused_refresh_token_is_an_authentication_error(oauth_app):
    with oauth_app.app_context(), pytest.raises(AuthenticationError) as raised:
        upstream_oauth.refresh("not-a-refresh-token")
    assert "invalid_grant" in raised.value.message


def test_refusals_and_the_history_name_the_same_oauth_account(oauth_app, company, sandbox_url):
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    with client.session_transaction() as sess:
        signed = dict(sess["companies"])
    assert signed[str(company.id)]["account"] == f"oauth:{user['email']}", "one prefix"
    with oauth_app.test_request_context(f"/c/{company.id}/"):
        session["companies"], g.company_id = signed, company.id
        remember_refusal(WRITE)
        assert set(session[REFUSED_KEY]) == {f"{company.id}:{current_actor().fp}"}


def test_a_company_listed_without_a_name_signs_in_under_its_id(oauth_app):
    class Listing:
        """A client whose /2/companies/ answer (the live shape) leaves a name out."""

        def get(self, path):
            return [{"companies": [{"id": 7}, {"id": 8, "name": "Nyolc Kft"}]}]

    with oauth_app.test_request_context("/oauth/callback"):
        auth_views._sign_in_companies("a-grant", {"email": "nev@example.hu"},
                                      company_api.companies(Listing()))
        assert {key: entry["company_name"] for key, entry in session["companies"].items()} \
            == {"7": "7", "8": "Nyolc Kft"}


@pytest.mark.usefixtures("no_gc_pause")
def test_the_profile_and_the_companies_are_read_side_by_side(
        oauth_app, company, sandbox_url, sandbox_log, faults):
    user = oauth_user(sandbox_url, [company.id])
    for path in ("/2/user-profile/", "/2/companies/"):
        faults.add(path=path, method="GET", kind="latency", latency_ms=300)
    sandbox_log.reset()
    landed = oauth_sign_in(oauth_app.test_client(), user["id"])
    assert landed.status_code == 303
    reads = [*sandbox_log.entries(method="GET", path="/2/user-profile/"),
             *sandbox_log.entries(method="GET", path="/2/companies/")]
    assert len(reads) == 2 and in_flight_together(reads), \
        [(e["path"], e["at"], e["duration_ms"]) for e in reads]


def test_an_expense_opens_under_oauth_without_the_bank_accounts_it_cannot_read(
        oauth_app, company, sandbox_url, sandbox_log):
    made = make_expense(Api(sandbox_url, company), expense_catalogue(Api(sandbox_url, company)))
    user = oauth_user(sandbox_url, [company.id])
    client = oauth_app.test_client()
    oauth_sign_in(client, user["id"])
    sandbox_log.reset()
    for path in (f"/c/{company.id}/expenses/{made['id']}", f"/c/{company.id}/expenses/"
                 f"{made['id']}/edit"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert made["invoice_number"] in page.get_data(as_text=True)
    assert not sandbox_log.entries(path="/1/", sent_for=company.id), "no Bearer token to /1/"


def test_a_document_downloads_under_oauth_through_its_own_signed_link(oauth_app, company,
                                                                     sandbox_url):
    # Bookdesk cannot read /1/documents/files with a Bearer token: the list's link is the way.
    made = requests.post(f"{sandbox_url}/_sandbox/documents/", timeout=10, json={
        "company_id": company.id, "filename": "oauth.pdf"})
    assert made.status_code == 201, made.text
    client = oauth_app.test_client()
    oauth_sign_in(client, oauth_user(sandbox_url, [company.id])["id"])
    page = client.get(f"/c/{company.id}/documents/").get_data(as_text=True)
    link = html.unescape(re.search(r'href="([^"]+)" rel="noreferrer" download="oauth.pdf"',
                                   page)[1])
    assert link.startswith(sandbox_url) and f"/c/{company.id}/documents/" not in link
    assert requests.get(link, timeout=10).content.startswith(b"%PDF")
