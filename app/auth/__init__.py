"""Sign-in, server-side sessions and company-scoped blueprints.

Public helpers for areas:
    company_blueprint(name, import_name, url_prefix="") -> Blueprint under /c/<company_id>/
    current_actor() -> Actor(name, fingerprint) for audit records
    signed_in_companies() -> {"<id>": {"company_name", "user_name", ...}} of this session
"""
from __future__ import annotations

from flask import Flask, g

from app.auth.company import Actor, company_blueprint, current_actor
from app.auth.session import companies

__all__ = ["Actor", "company_blueprint", "current_actor", "init_app", "signed_in_companies"]


def signed_in_companies() -> list[dict]:
    """The companies of this session for the switcher: id, name, current (no tokens)."""
    current = g.get("company_id")
    return [
        {"id": int(key), "name": entry["company_name"], "current": int(key) == current}
        for key, entry in sorted(companies().items(), key=lambda item: item[1]["company_name"])
    ]


def init_app(app: Flask) -> None:
    """Register the sign-in views and the company URL defaults."""
    from app.auth import company, throttle, views

    company.init_app(app)
    app.register_blueprint(views.bp)
    throttle.init_app(app)
    app.jinja_env.globals.update(signed_in_companies=signed_in_companies)
