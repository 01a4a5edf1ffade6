"""Open redirects: no `next` parameter can send the user to another site.

Checked where `next` is known to be used (sign-in form and its POST, demo sign-in, language
switch) and, generically, on every GET route of app.url_map with `?next=` appended, so a route
added later that starts honouring `next` is covered.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from app import create_app
from tests.app.conftest import csrf_token, page_csrf, sign_in
from tests.support.routes import RouteSampler, SampleContext

EVIL = [
    "//evil.example",
    "///evil.example",
    "https://evil.example",
    "http:evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
]
NEXT_INPUT = re.compile(r'<input[^>]*name="next"[^>]*>')


def is_local(location: str | None) -> bool:
    """True when a browser would stay on this site following `location`."""
    if not location:
        return True
    if any(ch in location for ch in "\\\t\r\n ") or location.startswith("//"):
        return False
    parts = urlsplit(location)
    if parts.scheme or parts.netloc:
        return parts.scheme in ("http", "https") and parts.netloc == "localhost"
    return location.startswith("/")


def _targets(response) -> list[str]:
    return [response.headers.get(name) for name in ("Location", "HX-Redirect")
            if response.headers.get(name)]


def _carries(location: str, target: str) -> bool:
    """True when a redirect's location is (built from) the `next` value we sent."""
    lowered = location.lower()
    return "evil.example" in lowered or lowered.startswith(("javascript:", "data:")) \
        or target.strip() in location


def test_is_local_tells_apart_site_paths_from_other_sites():
    assert is_local("/c/1/") and is_local("/login?next=%2Fc%2F1%2F") and is_local(None)
    assert not any(is_local(target) for target in EVIL)


@pytest.mark.parametrize("target", EVIL)
def test_login_form_does_not_carry_a_foreign_next(client, target):
    html = client.get("/login", query_string={"next": target}).get_data(as_text=True)
    field = NEXT_INPUT.search(html).group(0)
    assert "evil" not in field and "javascript" not in field.lower()


@pytest.mark.parametrize("target", EVIL)
def test_sign_in_with_a_foreign_next_lands_on_the_dashboard(client, company, target):
    response = sign_in(client, company, next_url=target)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/c/{company.id}/"


@pytest.mark.parametrize("target", EVIL)
def test_language_switch_with_a_foreign_next_stays_on_the_site(client, target):
    response = client.get("/lang/en", query_string={"next": target})
    assert response.status_code == 303 and is_local(response.headers["Location"])


@pytest.mark.parametrize("target", ["//evil.example", "https://evil.example", "javascript:x"])
def test_demo_sign_in_with_a_foreign_next_stays_on_the_site(app_config, target):
    client = create_app({**app_config, "DEMO": True}).test_client()
    data = {"csrf_token": page_csrf(client), "user": "admin", "next": target}
    response = client.post("/login/demo", data=data)
    assert all(is_local(location) for location in _targets(response))


def test_no_get_route_follows_a_foreign_next(app, company, sandbox_url):
    client = app.test_client()
    sign_in(client, company)
    routes = RouteSampler(app, SampleContext(sandbox_url, company)).get_routes()
    followed = []
    for route in routes:
        for target in EVIL:
            for headers in ({}, {"HX-Request": "true", "HX-Current-URL": "http://localhost/"}):
                response = client.get(route.path, query_string={"next": target},
                                      headers=headers)
                response.close()
                followed += [f"{route.path} next={target!r} -> {location}"
                             for location in _targets(response)
                             if not is_local(location) and _carries(location, target)]
    assert not followed, "\n".join(followed)


def test_htmx_sign_in_redirect_ignores_a_foreign_current_url(client, company):
    response = client.get(f"/c/{company.id}/", headers={
        "HX-Request": "true", "HX-Current-URL": "https://evil.example//evil.example/x"})
    location = response.headers["HX-Redirect"]
    assert is_local(location)
    html = client.get(location).get_data(as_text=True)
    assert "evil" not in NEXT_INPUT.search(html).group(0)
    token = csrf_token(html)
    assert token
