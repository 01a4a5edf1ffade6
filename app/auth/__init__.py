"""Sign-in, server-side sessions and company-scoped blueprints.

Modules: views (sign-in, demo sign-in, sign-out, and the form a refused token met, offered
again once signed in), forms (the sign-in forms), session (server-side
sessions, the signed-in companies, OAuth2 sign-in and its tokens), flow (company-scoped
blueprints, the client of a signed-in company, learned refusals, sign-in failure limits).

Public helpers for areas:
    company_blueprint(name, import_name, url_prefix="") -> Blueprint under /c/<company_id>/
    company_client(company_id) -> upstream client of a signed-in company (token or OAuth2)
    current_actor() -> Actor(name, fingerprint) for audit records
    refusal(scope), may_write(scope), remember_refusal(scope, reason), forget_refusal(scope):
        what the signed-in token may not do, learned from the API's 403s (app/auth/flow.py)
    signed_in_companies() -> [{"id", "name", "current"}] of this session, in name order
Server-side sessions (and the OAuth2 tokens they hold) are set up by app/auth/session.py
(create_app calls its init_app first).
"""
from __future__ import annotations

from flask import Blueprint, Flask, g

from app.auth import flow, views
from app.auth.flow import (
    ADMIN,
    WRITE,
    Actor,
    company_blueprint,
    company_client,
    current_actor,
    forget_refusal,
    may_write,
    refusal,
    remember_refusal,
)
from app.auth.session import companies_in_order

__all__ = ["ADMIN", "WRITE", "Actor", "bp", "resend_bp", "company_blueprint", "company_client",
           "current_actor", "forget_refusal", "init_app", "may_write", "refusal",
           "remember_refusal",
           "signed_in_companies"]

bp = Blueprint("auth", __name__)
bp.add_url_rule("/", "home", views.home, methods=["GET"])
bp.add_url_rule("/login", "login", views.login, methods=["GET", "POST"])
bp.add_url_rule("/login/demo", "demo_login", views.demo_login, methods=["POST"])
bp.add_url_rule("/logout", "logout", views.logout, methods=["POST"])
bp.add_url_rule("/login/oauth", "oauth_login", views.oauth_login, methods=["POST"])
bp.add_url_rule("/oauth/callback", "oauth_callback", views.oauth_callback, methods=["GET"])
# After a refused token: the form its POST carried, offered again once the company is signed in.
resend_bp = company_blueprint("resend", __name__, routes=(
    ("/send-again", "index", views.send_again, ["GET"]),))


def signed_in_companies() -> list[dict]:
    """The companies of this session for the switcher: id, name, current (no tokens)."""
    current = g.get("company_id")
    return [
        {"id": int(key), "name": entry["company_name"], "current": int(key) == current}
        for key, entry in companies_in_order()
    ]


def init_app(app: Flask) -> None:
    """Register the sign-in views, their failure limits and the company URL defaults."""
    flow.init_company_urls(app)
    app.register_blueprint(bp)
    flow.init_throttle(app, views.refused)
    app.after_request(flow.learn_refusals)
    app.jinja_env.globals.update(signed_in_companies=signed_in_companies, refusal=refusal,
                                 may_write=may_write, write_attrs=flow.write_attrs,
                                 refused_here=flow.refused_here,
                                 READ_ONLY_ID=flow.READ_ONLY_ID)
