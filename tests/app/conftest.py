"""Bookdesk app fixtures: an app against the live sandbox, a test client, the sign-in helpers."""
from __future__ import annotations

import re

import pytest

from app import create_app

CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
CSRF_ANY = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@pytest.fixture(scope="session")
def static_build_dir(tmp_path_factory) -> str:
    """One folder of hashed static twins for every app of the session (app/assets.py)."""
    return str(tmp_path_factory.mktemp("static-build"))


@pytest.fixture
def app_config(sandbox_url, tmp_path, static_build_dir) -> dict:
    """Overrides for create_app: sandbox upstream, test mode, tmp instance folder, English."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "UPSTREAM_URL": sandbox_url,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "STATIC_BUILD_DIR": static_build_dir,
        "UPSTREAM_RETRIES": 1,
        "UPSTREAM_BACKOFF": 0.01,
        "UPSTREAM_READ_TIMEOUT": 5,
        # Assertions read English text; Hungarian as the default is tested on its own.
        "DEFAULT_LOCALE": "en",
    }


@pytest.fixture
def app(app_config):
    """A Bookdesk app talking to the live sandbox."""
    return create_app(app_config)


@pytest.fixture
def client(app):
    """A Flask test client (keeps cookies, like one browser)."""
    return app.test_client()


def csrf_token(html: str) -> str:
    """The CSRF token of the first form on a page."""
    match = CSRF_INPUT.search(html) or CSRF_ANY.search(html)
    assert match, "no csrf_token input on the page"
    return match.group(1)


def login_form(html: str, company, role: str = "admin", name: str = "Teszt Elek", *,
               company_id=None, token=None, next_url=None) -> dict:
    """The sign-in form's fields for the company's token of `role`, CSRF token read from html."""
    data = {
        "csrf_token": csrf_token(html),
        "token": token if token is not None else company.tokens[role],
        "name": name,
        "company_id": "" if company_id is None else str(company_id),
    }
    if next_url is not None:
        data["next"] = next_url
    return data


def sign_in(client, company, role: str = "admin", name: str = "Teszt Elek", *,
            company_id=None, token=None, next_url=None, follow=False):
    """Fetch /login, then post the company's token for `role`; returns the POST response."""
    html = client.get("/login").get_data(as_text=True)
    data = login_form(html, company, role, name, company_id=company_id, token=token,
                      next_url=next_url)
    return client.post("/login", data=data, follow_redirects=follow)


def signed_in(client, company, area: str = "", role: str = "admin", **sign_in_args) -> str:
    """Sign in with `role`'s token (must answer 303); returns /c/<id>/ followed by `area`."""
    response = sign_in(client, company, role, **sign_in_args)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return f"/c/{company.id}/{area}"


def signed_client(app_config, company, **overrides):
    """A test client of a Bookdesk built with `overrides`, signed in as the company's admin."""
    client = create_app({**app_config, **overrides}).test_client()
    signed_in(client, company)
    return client


@pytest.fixture
def signed(client, company):
    """The test client signed in as the company's admin."""
    signed_in(client, company)
    return client


def session_cookie(client, app) -> str | None:
    """The session id cookie the test client currently holds."""
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    return cookie.value if cookie else None


def page_csrf(client, path: str = "/login") -> str:
    """A CSRF token from a page for this client's session."""
    return csrf_token(client.get(path).get_data(as_text=True))
