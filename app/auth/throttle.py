"""Failed sign-ins are rate-limited per client and per account (Flask-Limiter).

Only a failed sign-in counts: the upstream refused the token (401), or refused it this company
(403); an unreachable upstream or a successful sign-in costs nothing. The limits are settings:
SIGN_IN_FAILURES_PER_CLIENT (keyed by the client address, after ProxyFix) and
SIGN_IN_FAILURES_PER_ACCOUNT (keyed by a fingerprint of the token tried, so one account
cannot be worn down from many addresses). Counters live in Redis when the sessions do
(SESSION_REDIS_URL), so every worker shares them; in memory otherwise. Once a limit is reached
the sign-in form answers 429 with a message and Retry-After, before asking the upstream.
"""
from __future__ import annotations

import time

from flask import Flask, current_app, g, request
from flask_babel import gettext as _
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address

from app.store.history import fingerprint

LIMITED_ENDPOINTS = ("auth.login",)


def init_app(app: Flask) -> None:
    """Give the sign-in view its two failure limits (one limiter, one storage per app)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI",
                          app.config.get("SESSION_REDIS_URL") or "memory://")
    limiter = Limiter(get_remote_address, app=app, key_prefix="bookdesk:sign-in",
                      headers_enabled=False)
    limits = (limiter.limit(_per_client, key_func=get_remote_address, scope="client", **_ON),
              limiter.limit(_per_account, key_func=_account_key, scope="account", **_ON))
    for endpoint in LIMITED_ENDPOINTS:
        view = app.view_functions[endpoint]
        for limit in limits:
            view = limit(view)
        app.view_functions[endpoint] = view


def record_failure() -> None:
    """Count this request against both limits (called when the upstream refused the token)."""
    g.sign_in_failed = True


def _per_client() -> str:
    return str(current_app.config["SIGN_IN_FAILURES_PER_CLIENT"])


def _per_account() -> str:
    return str(current_app.config["SIGN_IN_FAILURES_PER_ACCOUNT"])


def _account_key() -> str:
    token = (request.form.get("token") or "").strip()
    return fingerprint(token, current_app.secret_key) if token else "-"


def _failed(response) -> bool:
    return bool(g.get("sign_in_failed"))


def _refused(limit: RequestLimit):
    """The sign-in form again with why it was refused; nothing was asked of the upstream."""
    from app.auth.forms import LoginForm
    from app.auth.views import login_page

    form = LoginForm()
    wait = max(int(limit.reset_at - time.time()), 1)
    form.form_errors.append(_("Too many failed sign-ins. For your security, wait %(seconds)s "
                              "seconds before trying again.", seconds=wait))
    response = current_app.make_response(login_page(form, 429))
    response.headers["Retry-After"] = str(wait)
    return response


_ON = {"methods": ["POST"], "deduct_when": _failed, "on_breach": _refused}
