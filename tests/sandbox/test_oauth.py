"""OAuth2 as live offers it: code flow with PKCE over HTTP, Bearer on /2/, expiry, revocation."""
from __future__ import annotations

import re

import pytest
import requests
from expense_support import make_expense
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oauth_support import (
    REDIRECT_URI,
    Client,
    ConsentForm,
    authorize_url,
    bearer,
    consent,
    create_user,
    new_verifier,
    register_client,
    sign_in,
    token_request,
)

from sandbox.core.server import start
from sandbox.oauth.seed import DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, DEMO_REDIRECT_URIS
from tests.conftest import create_company

DEMO_REDIRECT = DEMO_REDIRECT_URIS[0]


@pytest.fixture
def client(sandbox_url):
    """A registered confidential client."""
    return register_client(sandbox_url)


@pytest.fixture
def other(make_company):
    """A second company."""
    return make_company(name="Másik Kft.")


@pytest.fixture
def user(sandbox_url, company, other):
    """A bookkeeper of the test company and a viewer of the other one."""
    return create_user(sandbox_url, {company.id: "bookkeeper", other.id: "viewer"},
                       first_name="Éva", last_name="Fekete")


@pytest.fixture
def tokens(sandbox_url, client, user):
    """The token response of a completed code flow."""
    return sign_in(sandbox_url, client, user)


def test_code_flow_with_pkce_token_lists_the_users_companies(sandbox_url, tokens, company,
                                                              other, make_company):
    make_company(name="Idegen Zrt.")  # a company the user has no role in
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] > 0
    resp = bearer(sandbox_url, "/2/companies/", tokens["access_token"])
    assert resp.status_code == 200, resp.text
    assert resp.json() == [{"companies": [{"id": company.id, "name": company.name},
                                          {"id": other.id, "name": other.name}]}]


def test_bearer_token_reads_expenses_with_quick_company_id(sandbox_url, api, tokens, company):
    made = make_expense(api, invoice_number="OAUTH-1")
    resp = bearer(sandbox_url, "/2/expenses/", tokens["access_token"], company=company.id)
    assert resp.status_code == 200, resp.text
    assert [e["id"] for e in resp.json()["results"]["expenses"]] == [made["id"]]


def test_bearer_token_also_takes_the_specs_company_header(sandbox_url, api, tokens, company):
    made = make_expense(api, invoice_number="OAUTH-2")
    resp = bearer(sandbox_url, f"/2/expenses/{made['id']}/", tokens["access_token"],
                  company=company.id, header="Service-Company-Id")
    assert resp.status_code == 200, resp.text
    assert resp.json()["invoice_number"] == "OAUTH-2"


def test_bearer_without_company_header_or_for_a_foreign_company_is_refused(
        sandbox_url, tokens, make_company):
    stranger = make_company()
    assert bearer(sandbox_url, "/2/expenses/", tokens["access_token"]).status_code == 403
    resp = bearer(sandbox_url, "/2/expenses/", tokens["access_token"], company=stranger.id)
    assert resp.status_code == 403
    assert resp.json() == {"detail": "Company ID does not match"}
    for raw in (10**30, "abc"):
        assert bearer(sandbox_url, "/2/expenses/", tokens["access_token"],
                      company=raw).status_code == 403


def test_bearer_role_is_the_users_role_in_that_company(sandbox_url, tokens, company, other):
    body = {"name": "OAuth címke"}
    as_viewer = bearer(sandbox_url, "/2/tags/create/", tokens["access_token"], "POST",
                       company=other.id, json=body)
    assert as_viewer.status_code == 403
    as_bookkeeper = bearer(sandbox_url, "/2/tags/create/", tokens["access_token"], "POST",
                           company=company.id, json=body)
    assert as_bookkeeper.status_code == 200, as_bookkeeper.text  # live answers tag create 200


def test_user_profile_and_companies_take_only_bearer(sandbox_url, api, tokens):
    resp = bearer(sandbox_url, "/2/user-profile/", tokens["access_token"])
    assert resp.status_code == 200, resp.text
    assert resp.json()["user"]["first_name"] == "Éva"
    assert resp.json()["user"]["last_name"] == "Fekete"
    assert api.get("/2/user-profile/").status_code == 401
    assert api.get("/2/companies/").status_code == 401


def test_bearer_is_not_taken_on_v1(sandbox_url, tokens, company):
    resp = bearer(sandbox_url, "/1/incomes/", tokens["access_token"], company=company.id)
    assert resp.status_code == 401


def test_expired_token_gets_401_and_refresh_still_works(sandbox_url, client, tokens):
    expired = requests.post(f"{sandbox_url}/_sandbox/oauth/expire/",
                            json={"token": tokens["access_token"]}, timeout=10)
    assert expired.status_code == 200, expired.text
    resp = bearer(sandbox_url, "/2/companies/", tokens["access_token"])
    assert resp.status_code == 401
    assert resp.json() == {"detail": "Invalid token."}
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    renewed = token_request(sandbox_url, client, grant_type="refresh_token",
                            refresh_token=tokens["refresh_token"])
    assert renewed.status_code == 200, renewed.text
    assert bearer(sandbox_url, "/2/companies/", renewed.json()["access_token"]).status_code == 200


def test_revoked_access_token_gets_401(sandbox_url, client, tokens):
    assert bearer(sandbox_url, "/2/companies/", tokens["access_token"]).status_code == 200
    resp = requests.post(f"{sandbox_url}/oauth/revoke/", auth=(client.id, client.secret),
                         data={"token": tokens["access_token"],
                               "token_type_hint": "access_token"}, timeout=10)
    assert resp.status_code == 200, resp.text
    assert bearer(sandbox_url, "/2/companies/", tokens["access_token"]).status_code == 401


def test_revoked_refresh_token_is_refused(sandbox_url, client, tokens):
    resp = requests.post(f"{sandbox_url}/oauth/revoke/", auth=(client.id, client.secret),
                         data={"token": tokens["refresh_token"]}, timeout=10)
    assert resp.status_code == 200, resp.text
    again = token_request(sandbox_url, client, grant_type="refresh_token",
                          refresh_token=tokens["refresh_token"])
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert bearer(sandbox_url, "/2/companies/", tokens["access_token"]).status_code == 401


def test_refresh_rotates_the_pair_and_retires_the_old_one(sandbox_url, client, tokens):
    renewed = token_request(sandbox_url, client, grant_type="refresh_token",
                            refresh_token=tokens["refresh_token"])
    assert renewed.status_code == 200, renewed.text
    fresh = renewed.json()
    assert fresh["access_token"] != tokens["access_token"]
    assert fresh["refresh_token"] != tokens["refresh_token"]
    assert bearer(sandbox_url, "/2/companies/", fresh["access_token"]).status_code == 200
    assert bearer(sandbox_url, "/2/companies/", tokens["access_token"]).status_code == 401
    reused = token_request(sandbox_url, client, grant_type="refresh_token",
                           refresh_token=tokens["refresh_token"])
    assert reused.status_code == 400


def test_wrong_pkce_verifier_is_refused(sandbox_url, client, user):
    code = consent(sandbox_url, authorize_url(sandbox_url, client, new_verifier()), user)["code"]
    resp = token_request(sandbox_url, client, grant_type="authorization_code", code=code,
                         redirect_uri=REDIRECT_URI, code_verifier=new_verifier())
    assert resp.status_code == 400
    assert resp.json()["error"] == "invalid_grant"


def test_code_is_redeemed_once(sandbox_url, client, user):
    verifier = new_verifier()
    code = consent(sandbox_url, authorize_url(sandbox_url, client, verifier), user)["code"]
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
            "code_verifier": verifier}
    assert token_request(sandbox_url, client, **form).status_code == 200
    assert token_request(sandbox_url, client, **form).status_code == 400


def test_authorization_without_pkce_is_refused(sandbox_url, client):
    resp = requests.get(authorize_url(sandbox_url, client, None), allow_redirects=False,
                        timeout=10)
    assert resp.status_code == 302
    assert "error=invalid_request" in resp.headers["Location"]


def test_denied_consent_redirects_with_access_denied(sandbox_url, client, user):
    answer = consent(sandbox_url, authorize_url(sandbox_url, client, new_verifier(), "s-9"),
                     user, decision="deny")
    assert (answer["error"], answer["state"]) == ("access_denied", "s-9")
    assert "code" not in answer


def test_wrong_client_secret_is_refused(sandbox_url, client, user):
    verifier = new_verifier()
    code = consent(sandbox_url, authorize_url(sandbox_url, client, verifier), user)["code"]
    resp = requests.post(f"{sandbox_url}/oauth/token/", auth=(client.id, "not-the-secret"),
                         data={"grant_type": "authorization_code", "code": code,
                               "redirect_uri": REDIRECT_URI, "code_verifier": verifier},
                         timeout=10)
    assert resp.status_code == 401
    assert resp.json()["error"] == "invalid_client"


def test_user_without_two_factor_gets_403_where_the_company_requires_it(sandbox_url, client,
                                                                        company):
    lacking = create_user(sandbox_url, {company.id: "admin"}, has_2fa=False)
    access = sign_in(sandbox_url, client, lacking)["access_token"]
    assert bearer(sandbox_url, "/2/tags/", access, company=company.id).status_code == 403
    assert bearer(sandbox_url, "/2/companies/", access).status_code == 200


def test_request_log_keeps_no_oauth_secrets(sandbox_url, sandbox_log, client, user):
    tokens = sign_in(sandbox_url, client, user)
    logged = repr(sandbox_log.entries(path="/oauth/"))
    assert "/oauth/token/" in logged
    for secret in (client.secret, tokens["access_token"], tokens["refresh_token"]):
        assert secret not in logged


def test_consent_page_is_hungarian_by_default_and_english_on_request(sandbox_url, client):
    url = authorize_url(sandbox_url, client, new_verifier())
    hungarian = requests.get(url, timeout=10)
    english = requests.get(url, headers={"Accept-Language": "en-GB,en;q=0.9"}, timeout=10)
    assert hungarian.headers["Content-Language"] == "hu" and "Engedélyezem" in hungarian.text
    assert english.headers["Content-Language"] == "en" and ">Allow<" in english.text
    assert "Test app" in english.text


def test_allowing_without_choosing_a_user_asks_again(sandbox_url, client):
    url = authorize_url(sandbox_url, client, new_verifier())
    resp = requests.post(url, data={"decision": "allow"}, allow_redirects=False, timeout=10)
    assert resp.status_code == 400
    assert "Válassza ki, ki Ön." in resp.text


@pytest.fixture(scope="module")
def demo_url():
    """A sandbox seeded with the demo data (in memory)."""
    server, url = start(port=0, seed="demo")
    yield url
    server.shutdown()


def test_demo_client_signs_in_a_demo_user_to_both_demo_companies(demo_url):
    demo = Client(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET)
    page = requests.get(authorize_url(demo_url, demo, new_verifier(), redirect_uri=DEMO_REDIRECT),
                        timeout=10)
    anna = re.search(r'value="(\d+)"\s*>\s*Kovács Anna &lt;anna.kovacs@pelda.hu&gt;\s*'
                     r'\(Példa Kft., Második Bt.\)', page.text)
    assert anna and anna.group(1) in ConsentForm(page.text).users
    access = sign_in(demo_url, demo, int(anna.group(1)), redirect_uri=DEMO_REDIRECT)["access_token"]
    listed = bearer(demo_url, "/2/companies/", access).json()[0]["companies"]
    assert [c["name"] for c in listed] == ["Példa Kft.", "Második Bt."]
    assert bearer(demo_url, "/2/tags/", access, company=2).status_code == 200


PKCE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


@pytest.fixture(scope="module")
def pkce_pair(sandbox_url):
    """A client and a user for the property test (module-wide: hypothesis reruns the body)."""
    owner = create_company(sandbox_url)
    return register_client(sandbox_url), create_user(sandbox_url, {owner.id: "viewer"})


@settings(max_examples=20, deadline=None)
@given(wrong=st.text(PKCE_CHARS, min_size=43, max_size=128))
def test_any_other_verifier_is_refused_and_the_right_one_then_works(sandbox_url, pkce_pair,
                                                                   wrong):
    client, user = pkce_pair
    verifier = new_verifier()
    assume(wrong != verifier)
    code = consent(sandbox_url, authorize_url(sandbox_url, client, verifier), user)["code"]
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}
    refused = token_request(sandbox_url, client, **form, code_verifier=wrong)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"
    assert token_request(sandbox_url, client, **form, code_verifier=verifier).status_code == 200
