"""CSRF sweep: every state-changing route in app.url_map refuses a request without a valid token.

Signed in, with CSRF on as in production, each POST/PUT/PATCH/DELETE rule (URL arguments from
the shared sampler, so new routes are swept too) is sent a form, an htmx request, a JSON body
and a token from another session. Every one must be refused before the upstream is called.
"""
from __future__ import annotations

import pytest

from app import create_app
from tests.app.conftest import page_csrf, sign_in
from tests.support.routes import RouteSampler, SampleContext


@pytest.fixture
def csrf_app(app_config):
    """The app with CSRF protection explicitly on (TESTING must not switch it off)."""
    return create_app({**app_config, "WTF_CSRF_ENABLED": True})


def _attempts(foreign_token: str) -> dict[str, dict]:
    """Ways a forged request may arrive; none carries this session's token."""
    return {
        "form without token": {"data": {"name": "x", "amount": "1"}},
        "htmx without header": {"data": {"name": "x"}, "headers": {"HX-Request": "true"}},
        "json without token": {"json": {"name": "x"}},
        "other session's token in form": {"data": {"csrf_token": foreign_token, "name": "x"}},
        "other session's token in header": {"data": {"name": "x"},
                                            "headers": {"HX-Request": "true",
                                                        "X-CSRFToken": foreign_token}},
        "garbage token in header": {"headers": {"X-CSRFToken": "forged.token.value"}},
    }


def test_every_state_changing_route_refuses_requests_without_a_valid_csrf_token(
        csrf_app, company, sandbox_url, sandbox_log):
    client = csrf_app.test_client()
    sign_in(client, company)
    foreign_token = page_csrf(csrf_app.test_client())
    routes = RouteSampler(csrf_app, SampleContext(sandbox_url, company)).write_routes()
    assert {"/login", "/logout"} <= {route.path for route in routes}
    sandbox_log.reset()  # the samples above may have written to the sandbox; the sweep may not
    accepted = []
    for route in routes:
        for label, kwargs in _attempts(foreign_token).items():
            response = client.open(route.path, method=route.method, **kwargs)
            if response.status_code not in (400, 403):
                accepted.append(f"{route.method} {route.path} [{label}] -> {response.status_code}")
    assert not accepted, "accepted without a valid CSRF token:\n" + "\n".join(accepted)
    calls = [f"{e['method']} {e['path']}" for e in sandbox_log.entries(sent_for=company.id)]
    assert not calls, f"refused requests still called the upstream: {calls}"


def test_the_session_survives_the_sweep_so_refusals_were_not_sign_outs(csrf_app, company):
    client = csrf_app.test_client()
    sign_in(client, company)
    assert client.post("/logout").status_code == 400
    assert client.get(f"/c/{company.id}/").status_code == 200
    token = page_csrf(client, f"/c/{company.id}/")
    assert client.post("/logout", headers={"X-CSRFToken": token}).status_code == 303
