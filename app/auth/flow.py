"""Company-scoped pages and the sign-in failure limits.

Every area's blueprint lives under /c/<company_id>/. The company in the URL is what a request
acts on: the token, the company header and `g.api` all come from it, so two tabs on two
companies never cross-post.

Failed sign-ins are rate-limited per client and per account (Flask-Limiter). Only a failed
sign-in counts: the upstream refused the token (401), or refused it this company (403); an
unreachable upstream or a successful sign-in costs nothing. The limits are settings:
SIGN_IN_FAILURES_PER_CLIENT (keyed by the client address, after ProxyFix) and
SIGN_IN_FAILURES_PER_ACCOUNT (keyed by a fingerprint of the token tried, so one account
cannot be worn down from many addresses). Counters live in Redis when the sessions do
(SESSION_REDIS_URL), so every worker shares them; in memory otherwise. Once a limit is reached
the sign-in form answers 429 with a message and Retry-After, before asking the upstream.

What the signed-in token may do. The API never tells a token's role (no field of company-info
says it), so Bookdesk learns it from the API's refusals: a 403 on a write (any non-GET call)
is remembered for the session, per company and token fingerprint, under two scopes: "write"
(records: a viewer) and "admin" (company settings and policies: everyone but an administrator;
a token refused any write is refused these too). Sign-in asks once with a write that cannot
succeed (a partner without a name): the API checks the role before the body, so a viewer gets
403 and everyone else 400, and nothing is stored either way. The probe's 403 tells the role
alone (KNOWN_ROLE): the reason shown says no more until a change of the user's is refused. Any
later refusal, on any page, is picked up from the request's upstream calls. Templates ask
`refusal(scope)` / `may_write()` and `write_attrs()` (a disabled control with the reason).
"""
from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, flash, g, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address
from markupsafe import Markup

from app.auth.session import access_token, companies, company_entry
from app.store.history import Actor, actor_for, fingerprint
from app.templating import redirect_to
from app.upstream import company as company_api
from app.upstream import make_client
from app.upstream import partners as partners_api
from app.upstream.errors import PermissionDenied, UpstreamError

COMPANY_PREFIX = "/c/<int:company_id>"
LIMITED_ENDPOINTS = ("auth.login",)
REFUSED_KEY = "refused_writes"
WRITE, ADMIN = "write", "admin"
REASONS = {
    WRITE: _l("Your role in this company lets you view records but not change them (the "
              "accounting service refused a change for your token)."),
    ADMIN: _l("Only an administrator of this company can change this (the accounting service "
              "refused a change for your token)."),
}
# What the sign-in probe stores: the role is known, but no change of the user's was refused.
KNOWN_ROLE = "role"
ROLE_REASONS = {
    WRITE: _l("Your role in this company lets you view records but not change them."),
    ADMIN: _l("Only an administrator of this company can change this."),
}
READ_ONLY_ID = "read-only-reason"



def company_blueprint(name: str, import_name: str, url_prefix: str = "",
                      routes: tuple = (), **kwargs) -> Blueprint:
    """A Blueprint mounted at /c/<company_id><url_prefix> that requires that company's sign-in,
    with the area's route table: (rule, endpoint, view, methods) rows.

    Views take no `company_id` argument: it is in `g.company_id`, with `g.company` (dict: id,
    name, user_name) and `g.api` (upstream client for this company). `url_for` fills
    `company_id` in from the current request.
    """
    bp = Blueprint(name, import_name, url_prefix=COMPANY_PREFIX + url_prefix, **kwargs)
    bp.url_value_preprocessor(_pull_company_id)
    bp.before_request(_require_company)
    for rule, endpoint, view, methods in routes:
        bp.add_url_rule(rule, endpoint, view, methods=methods)
    return bp


def init_company_urls(app: Flask) -> None:
    """Let url_for() fill in the current company for company-scoped endpoints."""
    app.url_defaults(_inject_company_id)


def _pull_company_id(endpoint, values) -> None:
    g.company_id = values.pop("company_id", None) if values else None


def _inject_company_id(endpoint, values) -> None:
    company_id = g.get("company_id")
    if company_id is None or "company_id" in values:
        return
    if current_app.url_map.is_endpoint_expecting(endpoint, "company_id"):
        values["company_id"] = company_id


def _require_company():
    entry = company_entry(g.company_id)
    if entry is None:
        flash(_("You are not signed in to company #%(id)s: add it with one of its API tokens.",
                id=g.company_id) if companies() else _("Sign in to open this page."), "info")
        target = url_for("auth.login", company_id=g.company_id, next=here())
        return redirect_to(target)
    g.company = {
        "id": g.company_id,
        "name": entry["company_name"],
        "user_name": entry["user_name"],
    }
    g.api = company_client(g.company_id, entry)
    return None


def company_client(company_id: int, entry: dict | None = None):
    """An upstream client for a signed-in company (None if it is not): its API token, or the
    OAuth2 grant's access token (refreshed when due) with the company header."""
    entry = entry or company_entry(company_id)
    if entry is None:
        return None
    if entry.get("grant"):
        return make_client(company_id, access_token(entry["grant"]), "Bearer")
    return make_client(company_id, entry["token"])


def here() -> str | None:
    """Where to come back to after signing in: the page the user was looking at (for a
    form's POST, the page that sent it)."""
    if request.headers.get("HX-Request"):
        page = urlsplit(request.headers.get("HX-Current-URL", ""))
    elif request.method == "GET":
        return request.full_path.rstrip("?")
    else:
        page = urlsplit(request.referrer or "")
    return (page.path + ("?" + page.query if page.query else "")) or None


def current_actor() -> Actor:
    """The acting user for the store's records: Actor(name, fp), fp = keyed token fingerprint."""
    entry = company_entry(g.company_id)
    if entry is None:
        raise RuntimeError("current_actor() needs a signed-in company page")
    # An OAuth2 token rotates: the account (the user's e-mail) is what stays the same.
    account = entry.get("token") or entry["account"]
    return actor_for(entry.get("user_name") or "", account, current_app.secret_key)



def init_throttle(app: Flask, refused: Callable[[RequestLimit], object]) -> None:
    """Give the sign-in view its two failure limits (one limiter, one storage per app);
    `refused` answers a request over a limit (the sign-in form with the reason)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI",
                          app.config.get("SESSION_REDIS_URL") or "memory://")
    limiter = Limiter(get_remote_address, app=app, key_prefix="bookdesk:sign-in",
                      headers_enabled=False)
    on = {"methods": ["POST"], "deduct_when": _failed, "on_breach": refused}
    limits = (limiter.limit(_per_client, key_func=get_remote_address, scope="client", **on),
              limiter.limit(_per_account, key_func=_account_key, scope="account", **on))
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



# -- what this token may do -------------------------------------------------------------------


def refusal(scope: str = WRITE) -> str | None:
    """Why the signed-in token may not write in this scope (its role, or a refused change)."""
    if g.get("company_id") is None or company_entry(g.company_id) is None:
        return None
    learn_refusals()
    flags = (session.get(REFUSED_KEY) or {}).get(_who()) or {}
    reason = flags.get(scope)
    if reason is None and scope == ADMIN:
        reason = flags.get(WRITE)
    if reason is None:
        return None
    if reason == KNOWN_ROLE:
        return str(ROLE_REASONS.get(scope, ROLE_REASONS[WRITE]))
    return reason or str(REASONS.get(scope, REASONS[WRITE]))


def may_write(scope: str = WRITE) -> bool:
    """True unless the API refused this token a write in this scope."""
    return refusal(scope) is None


def write_attrs(scope: str = WRITE) -> Markup:
    """Attributes that disable a write control and point at the page's reason ('' if allowed)."""
    reason = refusal(scope)
    if reason is None:
        return Markup("")
    return Markup(' disabled aria-disabled="true" aria-describedby="{}" title="{}"').format(
        READ_ONLY_ID, reason)


def remember_refusal(scope: str = WRITE, reason: str = "") -> None:
    """Remember for this session that the API refused this token a write in this scope."""
    _store(_who(), scope, reason)


def forget_refusal(scope: str = WRITE) -> None:
    """Let the user try again (e.g. after their role was changed)."""
    refused = dict(session.get(REFUSED_KEY) or {})
    flags = dict(refused.get(_who()) or {})
    if flags.pop(scope, None) is not None:
        refused[_who()] = flags
        session[REFUSED_KEY] = refused


def refused_here() -> bool:
    """True when the API refused a write during this request: the page says why itself."""
    return bool(_refused_writes())


def _refused_writes() -> list:
    stats = getattr(g.get("api"), "stats", None)
    return [call for call in (stats.calls if stats is not None else [])
            if call.status == 403 and call.method != "GET"]


def learn_refusals(response=None):
    """Remember every write the API refused during this request. As an after-request hook it
    also answers 403 (not 400) when a form came back because of such a refusal."""
    if g.get("company_id") is None or company_entry(g.company_id) is None:
        return response
    refused = _refused_writes()
    for call in refused:
        scope = ADMIN if company_api.needs_admin(call.path) else WRITE
        if ((session.get(REFUSED_KEY) or {}).get(_who()) or {}).get(scope) in (None, KNOWN_ROLE):
            _store(_who(), scope, "")
    if refused and response is not None and response.status_code == 400:
        response.status_code = 403
    return response


def probe_writes(company_id: int, token: str) -> None:
    """At sign-in: learn whether the token may write at all, without changing anything."""
    key = _key(company_id, token)
    refused = dict(session.get(REFUSED_KEY) or {})
    refused.pop(key, None)
    session[REFUSED_KEY] = refused
    try:
        partners_api.create(make_client(company_id, token), {})
    except PermissionDenied:
        _store(key, WRITE, KNOWN_ROLE)
    except UpstreamError:
        pass  # 400 (the empty partner), or no answer: nothing known yet
    else:
        current_app.logger.warning("the sign-in write probe was accepted by the upstream")


def _who() -> str:
    # An OAuth2 sign-in has no API token: its user account (stored as "oauth:<e-mail>") is
    # who the refusals are about, as it is for current_actor.
    entry = company_entry(g.company_id)
    return _key(g.company_id, entry.get("token") or entry["account"])


def _key(company_id, token: str) -> str:
    return f"{company_id}:{fingerprint(token, current_app.secret_key)}"


def _store(key: str, scope: str, reason: str) -> None:
    refused = dict(session.get(REFUSED_KEY) or {})
    refused[key] = {**(refused.get(key) or {}), scope: reason}
    session[REFUSED_KEY] = refused
