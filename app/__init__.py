"""Bookdesk: a server-rendered frontend for bookkeepers on top of the accounting data API.

This module makes the application: its configuration (defaults, `BOOKDESK_*` environment
variables, overrides, derived settings) and `create_app`, which wires every part and registers
the areas' blueprints.
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> str:
    """Locate `templates`, `static` or `translations`: at the repo top, or in _data here (wheel)."""
    for candidate in (_PACKAGE_DIR.parent / name, _PACKAGE_DIR / "_data" / name):
        if candidate.is_dir():
            return str(candidate)
    return str(_PACKAGE_DIR.parent / name)

ENV_PREFIX = "BOOKDESK"
# The spec's name and the one public clients of the live service send.
COMPANY_HEADERS = ("Service-Company-Id", "Quick-Company-Id")
# The sandbox's demo OAuth2 client (sandbox/oauth/seed.py): the default in demo mode only.
DEMO_OAUTH_CLIENT = {"OAUTH_CLIENT_ID": "bookdesk-demo",
                     "OAUTH_CLIENT_SECRET": "bookdesk-demo-secret"}  # noqa: S105

DEFAULTS = {
    "UPSTREAM_URL": None,
    "SECRET_KEY": None,
    "SESSION_REDIS_URL": None,
    "COMPANY_HEADER": "Service-Company-Id",
    # The live authorization server's URLs are not public; unset, they point at the sandbox
    # behind UPSTREAM_URL (sandbox/oauth). Read by the OAuth sign-in (app/auth/session.py) and
    # the calls to the authorization server (app/upstream/oauth.py).
    "OAUTH_AUTHORIZE_URL": None,
    "OAUTH_TOKEN_URL": None,
    "OAUTH_REVOKE_URL": None,
    # The OAuth2 client Bookdesk is registered as; unset (outside demo mode): API tokens only.
    "OAUTH_CLIENT_ID": None,
    "OAUTH_CLIENT_SECRET": None,
    "DEFAULT_LOCALE": "hu",
    "LOCALES": ("hu", "en"),
    # The company's time zone: timestamps are shown in it (app/numbers.py).
    "TIMEZONE": "Europe/Budapest",
    "DATABASE_URL": None,
    "SESSION_IDLE_MINUTES": 60,
    "SESSION_MAX_HOURS": 12,
    "DEMO": False,
    "PROXY_COUNT": 0,
    "SESSION_COOKIE_NAME": "bookdesk_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_SECURE": False,
    "SESSION_KEY_PREFIX": "bookdesk:session:",
    "SESSION_PERMANENT": True,
    # Stored only when modified; the last-seen stamp is refreshed often enough (see app.auth).
    "SESSION_REFRESH_EACH_REQUEST": False,
    "WTF_CSRF_TIME_LIMIT": None,
    "MAX_CONTENT_LENGTH": 20 * 1024 * 1024,
    # Flask 3.1 request limits: one non-file form field, and the number of fields and files.
    # Werkzeug refuses a larger request with 413 before a view (or the upstream) sees it.
    "MAX_FORM_MEMORY_SIZE": 500_000,
    "MAX_FORM_PARTS": 1000,
    # Failed sign-ins allowed per client address and per token tried (app/auth/flow.py).
    "SIGN_IN_FAILURES_PER_CLIENT": "10 per minute",
    "SIGN_IN_FAILURES_PER_ACCOUNT": "20 per hour",
    # A page's upstream reads, in seconds; past it the page shows what it has
    # (app/upstream/parallel.py).
    "PAGE_DEADLINE_SECONDS": 5,
    # The longest value a URL parameter may hold (app/forms/filters.py).
    "QUERY_VALUE_MAX_LENGTH": 1000,
    # Hashed static files' compressed twins (app/assets.py); None: <instance>/static.
    "STATIC_BUILD_DIR": None,
    # Flask-Compress: brotli then gzip for pages (static files come pre-compressed from
    # app/assets.py and carry their Content-Encoding). CSV exports stream uncompressed: a
    # compressor holds its first bytes back, so an upstream failure before it let any go would
    # reach the server before the response's headers, and the server would answer with its own
    # bare error page; uncompressed, the header row sends them, and a failure later cuts the
    # download short, which the browser shows as failed.
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_BR_LEVEL": 4,
    "COMPRESS_LEVEL": 6,
    "COMPRESS_MIN_SIZE": 500,
    "COMPRESS_STREAMS": True,
    "COMPRESS_ALGORITHM_STREAMING": ["br"],
    "COMPRESS_MIMETYPES": ["text/html", "application/json", "text/plain"],
}

# Demo users of the sandbox's `--seed demo` (README). Tokens stay on the server: the login page
# only ever shows the key and the label.
DEMO_USERS = {
    "admin": {"token": "demo-admin", "name": "Kovács Anna", "role": "admin", "company_id": 1},
    "bookkeeper": {"token": "demo-bookkeeper", "name": "Szabó Péter", "role": "bookkeeper",
                   "company_id": 1},
    "viewer": {"token": "demo-viewer", "name": "Tóth Eszter", "role": "viewer", "company_id": 1},
    "admin2": {"token": "demo-admin-2", "name": "Nagy Gábor", "role": "admin", "company_id": 2},
    "no_2fa": {"token": "demo-no-2fa", "name": "Kiss Béla", "role": "no_2fa", "company_id": 1},
}


class ConfigError(RuntimeError):
    """Bookdesk cannot start with this configuration."""


def instance_path_from(overrides: dict | None) -> str | None:
    """The instance folder asked for by overrides or `BOOKDESK_INSTANCE_PATH`, if any."""
    path = (overrides or {}).get("INSTANCE_PATH") or os.environ.get(f"{ENV_PREFIX}_INSTANCE_PATH")
    return str(Path(path).resolve()) if path else None


def load_config(app: Flask, overrides: dict | None = None) -> None:
    """Fill the config: defaults, then the environment, then overrides, then derived values."""
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env(ENV_PREFIX)
    app.config.update(overrides or {})
    _derive(app)
    _check(app)


def _derive(app: Flask) -> None:
    from app.upstream.oauth import PATHS as OAUTH_PATHS  # here: `import app` needs no Authlib

    cfg = app.config
    cfg["SECRET_KEY"] = str(cfg["SECRET_KEY"]) if cfg.get("SECRET_KEY") else None
    cfg["SESSION_IDLE_MINUTES"] = float(cfg["SESSION_IDLE_MINUTES"])
    cfg["SESSION_MAX_HOURS"] = float(cfg["SESSION_MAX_HOURS"])
    cfg["PAGE_DEADLINE_SECONDS"] = float(cfg["PAGE_DEADLINE_SECONDS"])
    cfg["PERMANENT_SESSION_LIFETIME"] = timedelta(hours=cfg["SESSION_MAX_HOURS"])
    cfg.setdefault("DEMO_USERS", DEMO_USERS if cfg["DEMO"] else {})
    cfg.setdefault("BABEL_DEFAULT_LOCALE", cfg["DEFAULT_LOCALE"])
    cfg.setdefault("BABEL_TRANSLATION_DIRECTORIES", data_dir("translations"))
    for key, value in (DEMO_OAUTH_CLIENT.items() if cfg["DEMO"] else ()):
        cfg[key] = cfg.get(key) or value
    if cfg.get("UPSTREAM_URL"):
        cfg["UPSTREAM_URL"] = str(cfg["UPSTREAM_URL"]).rstrip("/")
        for key, path in OAUTH_PATHS.items():
            cfg[key] = cfg.get(key) or cfg["UPSTREAM_URL"] + path


def _check(app: Flask) -> None:
    cfg = app.config
    if not cfg["SECRET_KEY"]:
        if not (cfg.get("TESTING") or cfg.get("DEMO")):
            raise ConfigError(
                "BOOKDESK_SECRET_KEY is not set. Bookdesk refuses to start without a secret key "
                "outside demo and test mode. Set it to a long random value, e.g. "
                "`export BOOKDESK_SECRET_KEY=$(python3 -c 'import secrets; "
                "print(secrets.token_hex(32))')`."
            )
        cfg["SECRET_KEY"] = os.urandom(32).hex()
    if cfg["COMPANY_HEADER"] not in COMPANY_HEADERS:
        raise ConfigError(f"BOOKDESK_COMPANY_HEADER must be one of {', '.join(COMPANY_HEADERS)}.")
    if cfg["DEFAULT_LOCALE"] not in cfg["LOCALES"]:
        raise ConfigError(f"BOOKDESK_DEFAULT_LOCALE must be one of {', '.join(cfg['LOCALES'])}.")
    _check_timezone(cfg["TIMEZONE"])


def _check_timezone(name) -> None:
    try:
        ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"BOOKDESK_TIMEZONE {name!r} is not a known time zone, "
                          "e.g. Europe/Budapest.") from None


def create_app(overrides: dict | None = None) -> Flask:
    """Build the Bookdesk application; `overrides` win over the environment."""
    app = _make_flask(instance_path_from(overrides))
    load_config(app, overrides)
    _ensure_instance_folder(app)
    _init_logging(app)
    _init_proxy(app)
    _init_params(app)
    _init_security(app)
    _init_sessions(app)
    _init_i18n(app)
    _init_upstream(app)
    _init_store(app)
    _init_errors(app)
    _init_templates(app)
    _init_assets(app)
    _init_compression(app)
    _register_areas(app)
    return app


def _make_flask(instance_path: str | None = None) -> Flask:
    return Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=data_dir("templates"),
        static_folder=data_dir("static"),
    )


def _ensure_instance_folder(app: Flask) -> None:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)


def _init_logging(app: Flask) -> None:
    from app.security import init_logging

    init_logging(app)


def _init_proxy(app: Flask) -> None:
    if app.config["PROXY_COUNT"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        count = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)


def _init_security(app: Flask) -> None:
    from app.security import init_app

    init_app(app)


def _init_params(app: Flask) -> None:
    from app.forms.filters import init_app

    init_app(app)


def _init_sessions(app: Flask) -> None:
    from app.auth.session import init_app

    init_app(app)


def _init_i18n(app: Flask) -> None:
    from app.i18n import init_app

    init_app(app)


def _init_upstream(app: Flask) -> None:
    from app.upstream import init_app

    init_app(app)


def _init_store(app: Flask) -> None:
    from app.store import init_app

    init_app(app)


def _init_errors(app: Flask) -> None:
    from app.errors import init_app

    init_app(app)


def _init_templates(app: Flask) -> None:
    from app.templating import init_app

    init_app(app)


def _init_assets(app: Flask) -> None:
    from app.assets import init_app

    init_app(app)


def _init_compression(app: Flask) -> None:
    """Brotli, else gzip, for pages, fragments and downloads (settings above)."""
    from flask_compress import Compress

    Compress(app)


def _register_areas(app: Flask) -> None:
    """Mount sign-in, navigation and every work area's blueprints."""
    from app import auth, nav

    nav.init_app(app)
    auth.init_app(app)
    for blueprint in _area_blueprints():
        app.register_blueprint(blueprint)


def _area_blueprints() -> list:
    from app import (
        auth,
        bank,
        catalog,
        dashboard,
        expenses,
        exports,
        incomes,
        partners,
        review,
        settings,
        taxes,
        vat,
    )
    from app.policies import editor as policy_editor

    return [*dashboard.blueprints, auth.resend_bp, incomes.bp, review.bp, expenses.bp, bank.bp,
            partners.bp, *taxes.blueprints, vat.bp, *catalog.blueprints, settings.bp,
            policy_editor.bp, exports.bp]
