"""Security defaults: headers, CSRF on every state change, secret key, request ids, redaction."""
from __future__ import annotations

import logging
import re

import pytest

from app import ConfigError, create_app
from app.security import redact
from tests.app.conftest import session_cookie, sign_in

STRICT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "frame-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; "
              "object-src 'none'")
HX_CSRF_HEADER = re.compile(r'<body hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


def test_pages_carry_security_headers(client):
    response = client.get("/login")
    headers = response.headers
    assert headers["Content-Security-Policy"] == STRICT_CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert {"HX-Request", "Cookie"} <= set(response.vary)
    assert "Strict-Transport-Security" not in headers
    assert headers["X-Request-Id"]
    assert headers["Server-Timing"].startswith("upstream;")


def test_hsts_only_over_https(client):
    response = client.get("/login", base_url="https://bookdesk.example")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


def test_signed_in_pages_are_not_cached(client, company):
    assert "no-store" not in client.get("/login").headers.get("Cache-Control", "")
    sign_in(client, company)
    assert client.get(f"/c/{company.id}/").headers["Cache-Control"] == "no-store"


def test_pages_have_no_inline_script_or_style(client, company):
    sign_in(client, company)
    for path in ("/login", f"/c/{company.id}/"):
        html = client.get(path).get_data(as_text=True)
        assert "<script>" not in html and "<style" not in html and " style=" not in html
        assert " on" + "click=" not in html
        assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_session_cookie_is_httponly_lax_and_secure_over_https(client):
    cookie = client.get("/login").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = client.get("/login", base_url="https://bookdesk.example").headers["Set-Cookie"]
    assert "Secure" in secure


# Refusal of every state-changing route without a valid token (forms, htmx, JSON, foreign
# tokens) and the session surviving a refusal are proved by tests/app/test_csrf_sweep.py.
# What stays here: what the user sees on a refusal, and the htmx path that must be accepted.
def test_csrf_refusal_is_a_400_page_saying_the_form_has_expired(client, company):
    response = client.post("/login", data={"token": company.tokens["admin"], "name": "X"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "The form has expired" in html and "Reload the page" in html
    assert company.tokens["admin"] not in html


def test_csrf_header_from_body_is_accepted_for_htmx(client, company):
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/").get_data(as_text=True)
    token = HX_CSRF_HEADER.search(html).group(1)
    response = client.post("/logout", headers={"X-CSRFToken": token, "HX-Request": "true"})
    assert response.status_code == 303
    assert client.get(f"/c/{company.id}/").status_code == 303


def test_refuses_to_start_without_secret_key_outside_demo_and_test(tmp_path, monkeypatch):
    monkeypatch.delenv("BOOKDESK_SECRET_KEY", raising=False)
    with pytest.raises(ConfigError, match="BOOKDESK_SECRET_KEY"):
        create_app({"INSTANCE_PATH": str(tmp_path), "UPSTREAM_URL": "http://127.0.0.1:9"})


def test_secret_key_from_environment_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOKDESK_SECRET_KEY", "from-the-environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "UPSTREAM_URL": "http://127.0.0.1:9"})
    assert app.secret_key == "from-the-environment"


def test_demo_mode_starts_without_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("BOOKDESK_SECRET_KEY", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "DEMO": True})
    assert len(app.secret_key) >= 32


def test_request_id_is_taken_from_a_safe_incoming_header_only(client):
    mine = client.get("/login", headers={"X-Request-Id": "abc-123-def-456"})
    assert mine.headers["X-Request-Id"] == "abc-123-def-456"
    evil = client.get("/login", headers={"X-Request-Id": "x<script>alert(1)</script>"})
    assert evil.headers["X-Request-Id"] != "x<script>alert(1)</script>"
    assert len(evil.headers["X-Request-Id"]) == 32


def test_log_records_carry_request_id_and_never_a_token(app, caplog):
    with app.test_request_context(headers={"X-Request-Id": "req-0000001"}), \
            caplog.at_level(logging.INFO):
        logging.getLogger("app.test").info("sent Authorization: Token %s", "sekrit-abc")
    (record,) = [r for r in caplog.records if r.name == "app.test"]
    assert record.request_id == "req-0000001"
    assert "sekrit-abc" not in record.getMessage()
    assert "Token [redacted]" in record.getMessage()


def test_redact_hides_token_values_in_every_spelling():
    assert "abc" not in redact("Authorization: Token abc")
    assert "abc" not in redact("token=Token%20abc&x")
    assert redact("nothing here") == "nothing here"


def test_error_page_shows_request_id_but_no_traceback(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    html = response.get_data(as_text=True)
    assert response.status_code == 500
    assert response.headers["X-Request-Id"] in html
    assert "secret internals" not in html and "Traceback" not in html


def test_sign_in_replaces_the_anonymous_session_record(client, app, company):
    client.get("/login")
    anonymous = session_cookie(client, app)
    sign_in(client, company)
    cache = app.session_interface.cache
    assert cache.get(app.config["SESSION_KEY_PREFIX"] + anonymous) is None
