"""Several companies per session, expiry, and how upstream auth errors end a company's sign-in."""
from __future__ import annotations

import pytest

from app.auth import company_blueprint, current_actor
from app.upstream import make_client
from tests.app.conftest import session_cookie, sign_in


def test_two_companies_in_one_session_each_page_acts_on_its_url_company(
        client, company, make_company, sandbox_log):
    other = make_company()
    sign_in(client, company)
    sign_in(client, other)
    for target in (company, other, company):
        sandbox_log.reset()
        assert client.get(f"/c/{target.id}/").status_code == 200
        # Both companies of the session: a request sent to the wrong one must show up here.
        entries = [entry for signed in (company, other)
                   for entry in sandbox_log.entries(sent_for=signed.id)]
        assert entries, "the dashboard read nothing upstream"
        assert {e["headers"].get("Service-Company-Id") for e in entries} == {str(target.id)}
        # Requests the sandbox authenticated carry the company the token was checked for.
        assert {e["company_id"] for e in entries} - {None} <= {target.id}


def test_company_switcher_lists_every_signed_in_company(client, company, make_company):
    other = make_company()
    sign_in(client, company)
    sign_in(client, other)
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    assert f'href="/c/{other.id}/"' in html and other.name in html
    switched = client.get(f"/c/{other.id}/").get_data(as_text=True)
    assert 'class="switcher__name">' + other.name in switched


def test_signing_in_a_second_company_keeps_the_first(client, company, make_company):
    other = make_company()
    sign_in(client, company)
    sign_in(client, other)
    assert client.get(f"/c/{company.id}/").status_code == 200
    assert client.get(f"/c/{other.id}/").status_code == 200


def test_company_not_signed_in_in_this_session_redirects_to_login(client, company, make_company):
    other = make_company()
    sign_in(client, company)
    response = client.get(f"/c/{other.id}/")
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"/login?company_id={other.id}")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"You are not signed in to company #{other.id}: add it with one of its API" in page


@pytest.fixture
def idle_app(app_config):
    from app import create_app

    return create_app({**app_config, "SESSION_IDLE_MINUTES": 1, "SESSION_MAX_HOURS": 1})


def _move_time(monkeypatch, seconds: float) -> None:
    import app.auth.session as sessions

    real = sessions.time.time
    monkeypatch.setattr(sessions, "now", lambda: real() + seconds)


def test_idle_session_expires_and_old_cookie_is_dead(idle_app, company, monkeypatch):
    client = idle_app.test_client()
    sign_in(client, company)
    cookie = session_cookie(client, idle_app)
    assert client.get(f"/c/{company.id}/").status_code == 200
    _move_time(monkeypatch, 61)
    response = client.get(f"/c/{company.id}/")
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/login")
    assert "Your session has expired" in client.get("/login").get_data(as_text=True)
    monkeypatch.undo()
    replay = idle_app.test_client()
    replay.set_cookie(idle_app.config["SESSION_COOKIE_NAME"], cookie)
    assert replay.get(f"/c/{company.id}/").status_code == 303


def test_activity_within_idle_time_keeps_session(idle_app, company, monkeypatch):
    client = idle_app.test_client()
    sign_in(client, company)
    for step in (40, 80, 120):
        _move_time(monkeypatch, step)
        assert client.get(f"/c/{company.id}/").status_code == 200, step


def test_absolute_lifetime_ends_even_an_active_session(idle_app, company, monkeypatch):
    client = idle_app.test_client()
    sign_in(client, company)
    for step in range(50, 3600, 50):
        _move_time(monkeypatch, step)
        client.get("/login")
    _move_time(monkeypatch, 3601)
    assert client.get(f"/c/{company.id}/").status_code == 303


def _write_probe(app):
    """A company page that makes one small upstream write (company settings flag)."""
    bp = company_blueprint("probe", __name__, url_prefix="/probe")

    @bp.post("/write")
    def write():
        from flask import g

        g.api.patch(f"/2/company-info/update/{g.company_id}/", json={"enable_vat_period": True})
        return "written"

    @bp.get("/actor")
    def actor():
        name, fp = current_actor()
        return f"{name}|{fp}"

    app.register_blueprint(bp)
    return app


def _post(client, path, htmx=False):
    from tests.app.conftest import page_csrf

    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(path, data={"csrf_token": page_csrf(client)}, headers=headers)


def test_viewer_write_gets_403_page_explaining_refusal(app, company):
    client = _write_probe(app).test_client()
    sign_in(client, company, role="viewer")
    response = _post(client, f"/c/{company.id}/probe/write")
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    assert "refused this action" in html
    assert "permission" not in response.headers.get("Content-Type", "")
    assert "You do not have permission to perform this action." not in html  # no upstream body


def test_admin_write_goes_through(app, company, api):
    client = _write_probe(app).test_client()
    sign_in(client, company, role="admin")
    assert _post(client, f"/c/{company.id}/probe/write").status_code == 200
    assert api.get("/2/company-info/").json()["enable_vat_period"] is True


def test_current_actor_is_sign_in_name_and_token_fingerprint(app, company):
    client = _write_probe(app).test_client()
    sign_in(client, company, name="Teszt Elek")
    name, fp = client.get(f"/c/{company.id}/probe/actor").get_data(as_text=True).split("|")
    assert name == "Teszt Elek"
    assert len(fp) == 16 and fp not in company.tokens["admin"]


def test_upstream_401_drops_that_company_and_asks_to_sign_in_again(
        app, company, make_company, faults):
    other = make_company()
    client = _write_probe(app).test_client()
    sign_in(client, company)
    sign_in(client, other)
    faults.add(path="/2/company-info/update/*", status=401)
    response = _post(client, f"/c/{company.id}/probe/write")
    assert response.status_code == 303
    # The write was refused, so nothing was stored: the sign-in leads on to sending it again.
    assert response.headers["Location"] == (f"/login?company_id={company.id}"
                                             f"&next=/c/{company.id}/send-again")
    assert "Please sign in again" in client.get("/login").get_data(as_text=True)
    assert client.get(f"/c/{company.id}/").status_code == 303
    assert client.get(f"/c/{other.id}/").status_code == 200


def test_upstream_unavailable_shows_friendly_503_with_request_id(client, company, faults):
    sign_in(client, company)
    faults.add(path="/1/incomes*", status=503)
    response = client.get(f"/c/{company.id}/")
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "not reachable" in html
    assert response.headers["X-Request-Id"] in html
    assert "Injected fault" not in html and "Traceback" not in html


def test_upstream_unavailable_on_htmx_request_retargets_message_area(client, company, faults):
    sign_in(client, company)
    faults.add(path="/1/incomes*", status=503)
    response = client.get(f"/c/{company.id}/", headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert response.headers["HX-Retarget"] == "#messages"
    html = response.get_data(as_text=True)
    assert "<html" not in html and "not reachable" in html


def test_make_client_uses_url_company_header(app, company, sandbox_log):
    with app.test_request_context():
        make_client(company.id, company.tokens["admin"]).get("/2/company-info/")
    (entry,) = sandbox_log.entries(path="/2/company-info/", sent_for=company.id)
    assert entry["headers"]["Service-Company-Id"] == str(company.id)


def test_upstream_not_found_becomes_404_page(app, company):
    bp = company_blueprint("probe404", __name__, url_prefix="/probe404")

    @bp.get("/")
    def missing():
        from flask import g

        return g.api.get("/1/incomes/987654321/")

    app.register_blueprint(bp)
    client = app.test_client()
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/probe404/")
    assert response.status_code == 404
    assert "does not exist" in response.get_data(as_text=True)
