"""Server-side sessions: the store, the signed-in companies, idle and absolute expiry.

Session layout (plain types only, so the Redis serializer takes it):
    session["companies"] = {"<company_id>": {"token", "company_name", "user_name"}}, or for an
        OAuth2 sign-in {"grant", "account", "company_name", "user_name"}: the grant names the
        token pair kept beside the sessions in the same store (put_secret; app/auth/oauth.py)
    session["started_at"], session["seen_at"]: epoch seconds
    session["user_name"]: the name given at the latest sign-in
"""
from __future__ import annotations

import time
from pathlib import Path

from flask import Flask, current_app, flash, session
from flask_babel import _
from flask_session import Session

from app.i18n import collate_key

SECRET_PREFIX = "bookdesk:oauth-grant:"  # noqa: S105 (a key prefix)
# Rewriting the session on every request would race concurrent htmx requests; a coarse
# last-seen stamp is enough for an idle timeout measured in minutes.
SEEN_RESOLUTION_SECONDS = 30


def init_app(app: Flask) -> None:
    """Configure Flask-Session (files in the instance folder, or Redis) and the expiry check."""
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
