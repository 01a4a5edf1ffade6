"""The upstream's OAuth2 authorization server (spec: the OAuth2 section): the authorize redirect
with S256 PKCE, and the token endpoint's code exchange, refresh and revocation, through Authlib.

Authlib's Flask client keeps the state and the PKCE verifier in the server-side session between
`authorize` and `exchange`. Every failure ends as a typed error of app/upstream/errors.py: no
answer, a timeout or a 5xx is Unavailable; a refusal (invalid_grant, access_denied, a state that
does not match) is AuthenticationError. Where the tokens are kept, and when they are refreshed,
is app/auth/session.py's business.

Settings: OAUTH_AUTHORIZE_URL, OAUTH_TOKEN_URL, OAUTH_REVOKE_URL, OAUTH_CLIENT_ID,
OAUTH_CLIENT_SECRET (app/__init__.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import requests
from authlib.integrations.flask_client import OAuth
from authlib.integrations.requests_client import OAuth2Session, OAuthError
from flask import Flask, current_app

from .errors import AuthenticationError, Unavailable

# The authorization server's endpoints under the upstream's base URL (the live service's and the
# sandbox's): the settings' defaults when they are not set.
PATHS = {"OAUTH_AUTHORIZE_URL": "/oauth/authorize/", "OAUTH_TOKEN_URL": "/oauth/token/",
         "OAUTH_REVOKE_URL": "/oauth/revoke/"}

CLIENT_NAME = "upstream"
TOKEN_TIMEOUT = (3.05, 15)
AUTH_METHOD = "client_secret_basic"
TOKEN_PATH = "/oauth/token/"  # noqa: S105 (a path)
REVOKE_PATH = "/oauth/revoke/"


def register(app: Flask) -> None:
    """Register the authorization server as Authlib's Flask client (PKCE S256)."""
    cfg = app.config
    registry = OAuth(app)
    registry.register(
        CLIENT_NAME, client_id=cfg.get("OAUTH_CLIENT_ID"),
        client_secret=cfg.get("OAUTH_CLIENT_SECRET"),
        authorize_url=cfg.get("OAUTH_AUTHORIZE_URL"), access_token_url=cfg.get("OAUTH_TOKEN_URL"),
        client_kwargs={"code_challenge_method": "S256", "token_endpoint_auth_method": AUTH_METHOD,
                       "default_timeout": TOKEN_TIMEOUT})
    app.extensions["bookdesk_oauth"] = registry


def authorize(redirect_uri: str, locale: str):
    """The redirect to the authorize URL (state and PKCE verifier kept in the session)."""
    return _flask_client().authorize_redirect(redirect_uri, ui_locales=locale)


def exchange() -> dict:
    """Redeem the current callback's code with its PKCE verifier: the token response."""
    with _typed_errors(TOKEN_PATH):
        token = _flask_client().authorize_access_token()
    if not token or not token.get("access_token"):
        raise AuthenticationError("the token endpoint issued no access token", path=TOKEN_PATH)
    return dict(token)


def refresh(refresh_token: str) -> dict:
    """The refresh token grant: the new token response (refresh tokens rotate)."""
    with _typed_errors(TOKEN_PATH), _token_session() as session:
        token = session.refresh_token(current_app.config["OAUTH_TOKEN_URL"],
                                      refresh_token=refresh_token)
    return dict(token)


def revoke(refresh_token: str) -> None:
    """Revoke a refresh token (which retires its pair); nothing without OAUTH_REVOKE_URL."""
    url = current_app.config.get("OAUTH_REVOKE_URL")
    if not url:
        return
    with _typed_errors(REVOKE_PATH), _token_session() as session:
        session.revoke_token(url, refresh_token, token_type_hint="refresh_token")  # noqa: S106


@contextmanager
def _typed_errors(path: str) -> Iterator[None]:
    """Authlib's and requests' exceptions as the upstream's typed errors."""
    try:
        yield
    except requests.RequestException:
        raise Unavailable("the authorization server did not answer", path=path) from None
    except OAuthError as exc:
        raise AuthenticationError(f"the authorization server refused: {exc.error}",
                                  path=path) from None


def _flask_client():
    return current_app.extensions["bookdesk_oauth"].create_client(CLIENT_NAME)


def _token_session() -> OAuth2Session:
    cfg = current_app.config
    return OAuth2Session(cfg["OAUTH_CLIENT_ID"], cfg["OAUTH_CLIENT_SECRET"],
                         token_endpoint_auth_method=AUTH_METHOD, default_timeout=TOKEN_TIMEOUT)
