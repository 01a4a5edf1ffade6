"""Sign-in, sign-out and sessions, over real HTTP against the sandbox."""
from __future__ import annotations

from tests.app.conftest import csrf_token, page_csrf, session_cookie, sign_in


def test_sign_in_with_valid_token_redirects_to_company_dashboard(client, company):
    response = sign_in(client, company)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/c/{company.id}/"
    page = client.get(f"/c/{company.id}/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert company.name in html
    assert "Teszt Elek" in html


# That the token reaches no page, header or cookie after sign-in is proved, on every route, by
# tests/app/test_canary_token.py.
def test_bad_token_shows_message_on_token_field_and_never_echoes_it(client, company):
    response = sign_in(client, company, token="sbx-wrong-token-123", name="Kovács Béla",
                       company_id=company.id)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'id="token-error"' in html
    assert "sbx-wrong-token-123" not in html
    assert 'value="Kovács Béla"' in html
    assert f'value="{company.id}"' in html


def test_two_factor_403_tells_user_to_enable_two_factor(client, company):
    response = sign_in(client, company, role="no_2fa")
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "two-factor authentication" in html
    assert client.get(f"/c/{company.id}/").status_code == 303


def test_company_id_not_matching_token_is_refused(client, company, make_company):
    other = make_company()
    response = sign_in(client, company, company_id=other.id)
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert 'id="company_id-error"' in html
    assert client.get(f"/c/{other.id}/").status_code == 303


def test_sign_in_gives_a_new_session_id(client, app, company):
    client.get("/login")
    before = session_cookie(client, app)
    assert before
    sign_in(client, company)
    after = session_cookie(client, app)
    assert after and after != before


def test_logout_deletes_server_side_session_so_replayed_cookie_is_anonymous(client, app, company):
    sign_in(client, company)
    cookie = session_cookie(client, app)
    assert client.get(f"/c/{company.id}/").status_code == 200
    token = page_csrf(client, f"/c/{company.id}/")
    response = client.post("/logout", data={"csrf_token": token})
    assert response.status_code == 303
    replay = app.test_client()
    replay.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    response = replay.get(f"/c/{company.id}/")
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"/login?company_id={company.id}")


def test_company_page_without_sign_in_redirects_to_login_with_next(client, company):
    response = client.get(f"/c/{company.id}/?x=1")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith(f"/login?company_id={company.id}&next=")
    assert "Sign in to open this page." in client.get(location).get_data(as_text=True)


def test_next_is_followed_when_it_is_a_local_path(client, company):
    response = sign_in(client, company, next_url=f"/c/{company.id}/?from=next")
    assert response.headers["Location"] == f"/c/{company.id}/?from=next"


def test_next_pointing_elsewhere_is_ignored(client, company):
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:x"):
        response = sign_in(client, company, next_url=target)
        assert response.headers["Location"] == f"/c/{company.id}/", target


def test_login_page_keeps_csrf_token(client):
    html = client.get("/login").get_data(as_text=True)
    assert csrf_token(html)


def test_upstream_down_at_sign_in_keeps_name_and_company_but_not_token(client, company, faults):
    faults.add(path="/2/company-info/", status=503)
    response = sign_in(client, company, name="Kovács Béla", company_id=company.id)
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "not reachable" in html
    assert 'value="Kovács Béla"' in html and f'value="{company.id}"' in html
    assert company.tokens["admin"] not in html


def test_sign_in_without_company_id_uses_the_tokens_company(client, company, sandbox_log):
    response = sign_in(client, company)
    assert response.headers["Location"] == f"/c/{company.id}/"
    (entry,) = sandbox_log.entries(path="/2/company-info/", sent_for=company.id)
    assert entry["company_id"] == company.id


def test_adding_a_second_company_also_changes_the_session_id(client, app, company, make_company):
    sign_in(client, company)
    first = session_cookie(client, app)
    sign_in(client, make_company())
    assert session_cookie(client, app) != first
    assert client.get(f"/c/{company.id}/").status_code == 200


def test_sign_in_without_company_id_sends_no_company_header(client, company, sandbox_log):
    sign_in(client, company)
    (entry,) = sandbox_log.entries(path="/2/company-info/", sent_for=company.id)
    assert "Service-Company-Id" not in entry["headers"]


def test_site_root_leads_to_sign_in_or_to_a_signed_in_company(client, company):
    assert client.get("/").headers["Location"] == "/login"
    sign_in(client, company)
    assert client.get("/").headers["Location"] == f"/c/{company.id}/"


def test_site_root_leads_to_the_first_company_in_the_language_s_name_order(
        client, make_company):
    named = {name: make_company(name=name) for name in ("Zala Kft", "Ödön Bt", "Ábel Kft")}
    for each in named.values():
        sign_in(client, each)
    # Code point order would put "Zala Kft" first (Á and Ö come after Z).
    assert client.get("/").headers["Location"] == f"/c/{named['Ábel Kft'].id}/"
