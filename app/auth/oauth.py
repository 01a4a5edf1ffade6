"""OAuth2 sign-in: authorization code with S256 PKCE, and where its access tokens are kept.

The flow: /login/oauth sends the browser to the authorization server (the state and the PKCE
verifier stay in the server-side session); /oauth/callback redeems the code, reads the
user's companies from /2/companies and signs them all in under one grant (app/auth/views.py).

One access token serves every company of the user: the company header alone picks the company.
The token pair is kept only in the server-side session store (app/auth/session.py), under a
random grant key; the session's company entries name the grant, never a token. An access token
with fewer than REFRESH_MARGIN_SECONDS left is refreshed before it is used (refresh token grant,
tokens rotate). The refresh runs under a lock per grant, and re-reads the stored pair inside
it, so concurrent requests refresh once and all use the new token.

Settings: OAUTH_AUTHORIZE_URL, OAUTH_TOKEN_URL, OAUTH_REVOKE_URL (default: the sandbox's under
UPSTREAM_URL, app/config.py), OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET (demo mode: the sandbox's demo
client). Without a client id the login page offers API tokens only. Every call to the
authorization server is app/upstream/oauth.py's.
"""
from __future__ import annotations

import contextlib
import secrets
import threading
from urllib.parse import urlsplit

from flask import Flask, current_app

from app.auth import session as store
from app.security import CSP
from app.upstream import errors as up
from app.upstream import oauth as server

REFRESH_MARGIN_SECONDS = 60

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def init_app(app: Flask) -> None:
    """Register the upstream's authorization server for the sign-in."""
    server.register(app)


def enabled() -> bool:
    """Whether the OAuth2 sign-in is configured (a client id and both URLs)."""
    cfg = current_app.config
    return bool(cfg.get("OAUTH_CLIENT_ID") and cfg.get("OAUTH_AUTHORIZE_URL")
                and cfg.get("OAUTH_TOKEN_URL"))


def login_csp() -> str:
    """The page policy with the authorization server allowed as a form target: the browser
    applies form-action to the redirect that follows the sign-in button's POST."""
    parts = urlsplit(current_app.config["OAUTH_AUTHORIZE_URL"])
    return CSP.replace("form-action 'self'", f"form-action 'self' {parts.scheme}://{parts.netloc}")


def start(redirect_uri: str, locale: str):
    """The redirect to the authorization server (state and PKCE verifier kept server-side)."""
    return server.authorize(redirect_uri, locale)


def finish() -> dict | None:
    """Redeem the callback's code with its PKCE verifier: the token pair, or None when the user
    denied, the state does not match, the server refused or did not answer."""
    try:
        return server.exchange()
    except (up.AuthenticationError, up.Unavailable):
        return None


def save_grant(token: dict) -> str:
    """Keep a fresh token pair in the session store; the grant key the session names."""
    grant = secrets.token_urlsafe(18)
    store.put_secret(grant, _pair(token))
    return grant


def _pair(token: dict) -> dict:
    # Our clock, not the token's expires_at: tests move time through store.now().
    lifetime = float(token.get("expires_in") or 0)
    return {"access_token": token["access_token"], "refresh_token": token.get("refresh_token"),
            "expires_at": store.now() + lifetime}


def access_token(grant: str) -> str:
    """The grant's access token, refreshed first when fewer than REFRESH_MARGIN_SECONDS remain."""
    pair = _stored(grant)
    if not _due(pair):
        return pair["access_token"]
    with _lock(grant):
        pair = _stored(grant)
        if _due(pair):
            pair = _refresh(grant, pair)
    return pair["access_token"]


def _stored(grant: str) -> dict:
    pair = store.get_secret(grant)
    if not pair:
        raise up.AuthenticationError("the OAuth2 grant is gone")
    return pair


def _due(pair: dict) -> bool:
    return pair["expires_at"] - store.now() < REFRESH_MARGIN_SECONDS


def _refresh(grant: str, pair: dict) -> dict:
    if not pair.get("refresh_token"):
        raise up.AuthenticationError("the OAuth2 access token expired and cannot be refreshed")
    fresh = _pair(server.refresh(pair["refresh_token"]))
    store.put_secret(grant, fresh)
    return fresh


def _lock(grant: str):
    """One refresh at a time per grant: a Redis lock across workers, a thread lock otherwise."""
    redis_client = current_app.config.get("SESSION_REDIS")
    if current_app.config.get("SESSION_TYPE") == "redis" and redis_client is not None:
        return redis_client.lock(f"bookdesk:oauth-refresh:{grant}", timeout=30,
                                 blocking_timeout=30)
    with _locks_guard:
        return _locks.setdefault(grant, threading.Lock())


def revoke(grant: str) -> None:
    """Revoke the grant's refresh token (which retires the pair) at sign-out; best effort."""
    pair = store.get_secret(grant) or {}
    if not pair.get("refresh_token"):
        return
    with contextlib.suppress(up.UpstreamError):
        server.revoke(pair["refresh_token"])
