"""OAuth2 as the live service offers it: the sandbox is the authorization server of its users.

Authorization code with S256 PKCE, rotating refresh tokens, a consent page, token expiry and RFC
7009 revocation, all on Authlib (rules.py); Bearer tokens on the /2/ API (bearer.py); the
user's companies and profile (routes.py); users and clients in the demo seed (seed.py) and
through /_sandbox/oauth/ (controls.py).
"""
from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("oauth", __name__)

from . import bearer, routes, rules  # noqa: E402,F401  (routes attach their views to bp)
from .controls import controls_bp  # noqa: E402


def init_app(app: Flask) -> None:
    """Register the endpoints and controls, the authorization server and the Bearer check."""
    app.register_blueprint(bp)
    app.register_blueprint(controls_bp)
    rules.init_server(app)
    app.extensions["sandbox_bearer"] = bearer.authenticate
