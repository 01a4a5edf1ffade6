"""Company-scoped pages: every area's blueprint lives under /c/<company_id>/.

The company in the URL is what a request acts on: the token, the company header and `g.api`
all come from it, so two tabs on two companies never cross-post.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, request, url_for

from app.auth.session import company_entry
from app.store.history import Actor, actor_for
from app.templating import redirect_to

COMPANY_PREFIX = "/c/<int:company_id>"


def company_blueprint(name: str, import_name: str, url_prefix: str = "", **kwargs) -> Blueprint:
    """A Blueprint mounted at /c/<company_id><url_prefix> that requires that company's sign-in.

    Views take no `company_id` argument: it is in `g.company_id`, with `g.company` (dict: id,
    name, user_name) and `g.api` (upstream client for this company). `url_for` fills
    `company_id` in from the current request.
    """
    bp = Blueprint(name, import_name, url_prefix=COMPANY_PREFIX + url_prefix, **kwargs)
    bp.url_value_preprocessor(_pull_company_id)
    bp.before_request(_require_company)
    return bp


def init_app(app: Flask) -> None:
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
        target = url_for("auth.login", company_id=g.company_id, next=_here())
        return redirect_to(target)
    g.company = {
        "id": g.company_id,
        "name": entry["company_name"],
        "user_name": entry["user_name"],
    }
    g.api = _make_client(g.company_id, entry["token"])
    return None


def _here() -> str | None:
    """Where to come back to after signing in: the page the user was looking at."""
    if request.headers.get("HX-Request"):
        page = urlsplit(request.headers.get("HX-Current-URL", ""))
        return (page.path + ("?" + page.query if page.query else "")) or None
    return request.full_path.rstrip("?") if request.method == "GET" else None


def _make_client(company_id: int, token: str):
    from app.upstream import make_client

    return make_client(company_id, token)


def current_actor() -> Actor:
    """The acting user for the store's records: Actor(name, fp), fp = keyed token fingerprint."""
    entry = company_entry(g.company_id)
    if entry is None:
        raise RuntimeError("current_actor() needs a signed-in company page")
    return actor_for(entry.get("user_name") or "", entry["token"], current_app.secret_key)
