"""Server-side sessions and the tokens they hold: the store, the signed-in companies, idle and
absolute expiry; the OAuth2 sign-in (authorization code with S256 PKCE) and its access tokens.

Session layout (plain types only, so the Redis serializer takes it):
    session["companies"] = {"<company_id>": {"token", "company_name", "user_name"}}, or for an
        OAuth2 sign-in {"grant", "account", "company_name", "user_name"}: the grant names the
        token pair kept beside the sessions in the same store (put_secret, save_grant)
    session["started_at"], session["seen_at"]: epoch seconds
    session["user_name"]: the name given at the latest sign-in
    session["kept_form"] = {"company_id", "action", "back", "user_name", "at", "fields":
        [[name, value], ...]}: a form whose POST met a refused token, offered again once the
        same user signs in again (keep_form)

The OAuth2 flow: /login/oauth sends the browser to the authorization server (the state and the
PKCE verifier stay in the server-side session); /oauth/callback redeems the code, reads the
user's companies from /2/companies and signs them all in under one grant (app/auth/views.py).

One access token serves every company of the user: the company header alone picks the company.
The token pair is kept only in the server-side session store, under a random grant key; the
session's company entries name the grant, never a token. An access token with fewer than
REFRESH_MARGIN_SECONDS left is refreshed before it is used (refresh token grant, tokens rotate).
The refresh runs under a lock per grant, and re-reads the stored pair inside it, so concurrent
requests refresh once and all use the new token.

Settings: OAUTH_AUTHORIZE_URL, OAUTH_TOKEN_URL, OAUTH_REVOKE_URL (default: the sandbox's under
UPSTREAM_URL, app/__init__.py), OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET (demo mode: the sandbox's demo
client). Without a client id the login page offers API tokens only. Every call to the
authorization server is app/upstream/oauth.py's.
"""
from __future__ import annotations

import contextlib
import secrets
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, current_app, flash, session
from flask_babel import _
from flask_session import Session

from app.i18n import collate_key
from app.security import CSP
from app.upstream import errors as up
from app.upstream import oauth as server

SECRET_PREFIX = "bookdesk:oauth-grant:"  # noqa: S105 (a key prefix)
# Rewriting the session on every request would race concurrent htmx requests; a coarse
# last-seen stamp is enough for an idle timeout measured in minutes.
SEEN_RESOLUTION_SECONDS = 30
REFRESH_MARGIN_SECONDS = 60
# How long a form that met a refused token is offered again after the next sign-in.
KEPT_FORM_SECONDS = 30 * 60

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def init_app(app: Flask) -> None:
    """Configure Flask-Session (files in the instance folder, or Redis), the expiry check, and
    the upstream's authorization server for the OAuth2 sign-in."""
    if app.config.get("SESSION_REDIS_URL"):
        import redis

        app.config["SESSION_TYPE"] = "redis"
        app.config["SESSION_REDIS"] = redis.Redis.from_url(app.config["SESSION_REDIS_URL"])
    else:
        from cachelib.file import FileSystemCache

        folder = Path(app.instance_path) / "sessions"
        app.config["SESSION_TYPE"] = "cachelib"
        app.config["SESSION_CACHELIB"] = FileSystemCache(str(folder), threshold=0, mode=0o600)
    Session(app)
    app.extensions["bookdesk_secrets"] = _secret_store(app)
    _secure_cookie_over_https(app.session_interface)
    app.before_request(enforce_lifetime)
    server.register(app)


def clear_all_sessions(app: Flask) -> None:
    """Drop every server-side session (files in the instance folder, or Bookdesk's Redis keys)."""
    if app.config["SESSION_TYPE"] == "redis":
        client = app.config["SESSION_REDIS"]
        for key in client.scan_iter(match=f"{app.config['SESSION_KEY_PREFIX']}*"):
            client.delete(key)
    else:
        app.config["SESSION_CACHELIB"].clear()


def _secret_store(app: Flask):
    """The session store itself (files), or a cache on the sessions' Redis."""
    if app.config["SESSION_TYPE"] == "redis":
        from cachelib.redis import RedisCache

        # No prefix of its own: the keys already start with SECRET_PREFIX.
        return RedisCache(host=app.config["SESSION_REDIS"], key_prefix="")
    return app.config["SESSION_CACHELIB"]


def put_secret(key: str, value: dict) -> None:
    """Keep a server-side record beside the sessions, as long as a session may live."""
    timeout = int(current_app.config["SESSION_MAX_HOURS"] * 3600)
    current_app.extensions["bookdesk_secrets"].set(SECRET_PREFIX + key, value, timeout=timeout)


def get_secret(key: str) -> dict | None:
    """A record kept by put_secret, or None."""
    return current_app.extensions["bookdesk_secrets"].get(SECRET_PREFIX + key)


def drop_secret(key: str) -> None:
    """Delete a record kept by put_secret."""
    current_app.extensions["bookdesk_secrets"].delete(SECRET_PREFIX + key)


def _secure_cookie_over_https(interface) -> None:
    from flask import request

    def get_cookie_secure(app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    interface.get_cookie_secure = get_cookie_secure


def now() -> float:
    """Current time in epoch seconds (one place to move time in tests)."""
    return time.time()


def companies() -> dict[str, dict]:
    """The companies signed in this session, keyed by str(company_id)."""
    return session.get("companies") or {}


def companies_in_order() -> list[tuple[str, dict]]:
    """This session's companies as (str id, entry), by name in the page language's order."""
    return sorted(companies().items(), key=lambda item: collate_key(item[1]["company_name"]))


def company_entry(company_id: int) -> dict | None:
    """The session record of one signed-in company, or None."""
    return companies().get(str(company_id))


def add_company(company_id: int, token: str, company_name: str, user_name: str) -> None:
    """Sign a company in with its API token under a new session id."""
    add_companies({company_id: {"token": token, "company_name": company_name}}, user_name)


def add_companies(entries: dict[int, dict], user_name: str) -> None:
    """Sign companies in under a new session id (entries: id -> token or grant, company_name);
    the first sign-in also starts the clocks."""
    if companies():
        current_app.session_interface.regenerate(session)
    else:
        start_session()
    before = grants()
    merged = dict(companies())
    for company_id, entry in entries.items():
        merged[str(company_id)] = {**entry, "user_name": user_name}
    session["companies"] = merged
    for grant in before - grants():  # replaced by a newer sign-in: nothing names it any more
        drop_secret(grant)
    session["user_name"] = user_name
    session.modified = True


def grants() -> set[str]:
    """The OAuth2 grants this session's companies use."""
    return {entry["grant"] for entry in companies().values() if entry.get("grant")}


def drop_company(company_id: int) -> None:
    """Forget one company's token (e.g. after the upstream answered 401)."""
    entries = dict(companies())
    if entries.pop(str(company_id), None) is not None:
        session["companies"] = entries


def keep_form(company_id: int, action: str, back: str | None,
              fields: list[tuple[str, str]]) -> None:
    """Hold a form whose POST met a refused token, to send again once the same user signs in
    again (its CSRF token aside: the page that offers it gives a fresh one). back: the page
    that sent it."""
    entry = company_entry(company_id) or {}
    session["kept_form"] = {"company_id": company_id, "action": action, "back": back,
                            "user_name": entry.get("user_name"), "at": now(),
                            "fields": [[k, v] for k, v in fields if k != "csrf_token"]}


def take_kept_form(company_id: int) -> dict | None:
    """The form kept for this company ({action, back, fields}), removed from the session;
    None when there is none, it is older than KEPT_FORM_SECONDS, or another user signed in."""
    kept = session.get("kept_form")
    if not isinstance(kept, dict) or kept.get("company_id") != company_id:
        return None
    session.pop("kept_form")
    entry = company_entry(company_id) or {}
    if now() - kept.get("at", 0) > KEPT_FORM_SECONDS:
        return None
    return kept if kept.get("user_name") == entry.get("user_name") else None


def start_session() -> None:
    """Give the session a new id (no fixation) and stamp its start."""
    current_app.session_interface.regenerate(session)
    stamp = now()
    session["started_at"] = stamp
    session["seen_at"] = stamp


def end_session() -> None:
    """Delete the server-side record and everything in it (its OAuth2 token pairs too); the old
    cookie becomes worthless."""
    for grant in grants():
        drop_secret(grant)
    current_app.session_interface.regenerate(session)
    session.clear()


def enforce_lifetime() -> None:
    """End a signed-in session that was idle too long or has lived past its maximum."""
    if not companies():
        return
    stamp = now()
    cfg = current_app.config
    idle = stamp - float(session.get("seen_at", 0))
    age = stamp - float(session.get("started_at", 0))
    if idle > cfg["SESSION_IDLE_MINUTES"] * 60 or age > cfg["SESSION_MAX_HOURS"] * 3600:
        end_session()
        flash(_("Your session has expired. Please sign in again."), "warning")
    elif idle > min(SEEN_RESOLUTION_SECONDS, cfg["SESSION_IDLE_MINUTES"] * 6):
        session["seen_at"] = stamp


# The OAuth2 sign-in and the token pairs it keeps beside the sessions.

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
    put_secret(grant, _pair(token))
    return grant


def _pair(token: dict) -> dict:
    # Our clock, not the token's expires_at: tests move time through now().
    lifetime = float(token.get("expires_in") or 0)
    return {"access_token": token["access_token"], "refresh_token": token.get("refresh_token"),
            "expires_at": now() + lifetime}


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
    pair = get_secret(grant)
    if not pair:
        raise up.AuthenticationError("the OAuth2 grant is gone")
    return pair


def _due(pair: dict) -> bool:
    return pair["expires_at"] - now() < REFRESH_MARGIN_SECONDS


def _refresh(grant: str, pair: dict) -> dict:
    if not pair.get("refresh_token"):
        raise up.AuthenticationError("the OAuth2 access token expired and cannot be refreshed")
    fresh = _pair(server.refresh(pair["refresh_token"]))
    put_secret(grant, fresh)
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
    pair = get_secret(grant) or {}
    if not pair.get("refresh_token"):
        return
    with contextlib.suppress(up.UpstreamError):
        server.revoke(pair["refresh_token"])
