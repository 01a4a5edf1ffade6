"""OAuth2 as the live service offers it: the sandbox is the authorization server of its users.

Authorization code with S256 PKCE, rotating refresh tokens, a consent page, token expiry and RFC
7009 revocation, all on Authlib (rules.py); Bearer tokens on the /2/ API (bearer.py); the
user's companies and profile (routes.py); users and clients in the demo seed (seed.py) and
through /_sandbox/oauth/ (controls.py).
"""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The OAuth2 blueprint; registering it also installs the server and the Bearer check."""
    from sandbox.oauth import bearer, controls, routes, rules

    bp = blueprint("oauth", __name__, (
        ("GET POST", "/oauth/authorize/", routes.authorize),
        ("POST", "/oauth/token/", routes.issue_token),
        ("POST", "/oauth/revoke/", routes.revoke_token),
        ("GET", "/2/companies/", routes.companies),
        ("GET", "/2/user-profile/", routes.user_profile),
        ("POST", "/_sandbox/oauth/users/", controls.create_user),
        ("POST", "/_sandbox/oauth/clients/", controls.create_client),
        ("POST", "/_sandbox/oauth/expire/", controls.expire_token),
    ))
    bp.record_once(lambda state: (rules.init_server(state.app),
                                  state.app.extensions.update(sandbox_bearer=bearer.authenticate)))
    return bp
