"""Sandbox-only OAuth2 controls for tests and demos, under /_sandbox/oauth/.

POST /_sandbox/oauth/users/    {"first_name", "last_name", "email"?, "has_2fa"?,
                                "companies": [{"id", "role"}]}        -> 201 {"id", "email"}
POST /_sandbox/oauth/clients/  {"redirect_uris": [...], "name"?}      -> 201 {"client_id",
                                                                          "client_secret"}
POST /_sandbox/oauth/expire/   {"token": "<access token>"}            -> 200: the pair's access
                               token is expired now (its refresh token still works)
"""
from __future__ import annotations

import secrets

from flask import jsonify, request

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.oauth.model import valid_role
from sandbox.oauth.rules import find_token
from sandbox.oauth.seed import add_client, add_user


def create_user():
    """Create a user who may sign in on the consent page, with roles in companies."""
    spec = request.get_json(silent=True) or {}
    roles = _roles(spec.get("companies"))
    email = spec.get("email") or f"user-{secrets.token_hex(4)}@example.hu"
    user = add_user(db(), email, str(spec.get("first_name") or "Teszt"),
                    str(spec.get("last_name") or "Felhasználó"), roles,
                    has_2fa=bool(spec.get("has_2fa", True)))
    return jsonify({"id": user.id, "email": user.email}), 201


def create_client():
    """Register a confidential client; answers its secret in clear, once."""
    spec = request.get_json(silent=True) or {}
    uris = spec.get("redirect_uris")
    if not isinstance(uris, list) or not uris or not all(isinstance(u, str) for u in uris):
        raise validation_error({"redirect_uris": ["A non-empty list of URLs is required."]})
    client_id, secret = f"client-{secrets.token_hex(6)}", secrets.token_urlsafe(24)
    add_client(db(), client_id, secret, uris, str(spec.get("name") or client_id))
    return jsonify({"client_id": client_id, "client_secret": secret}), 201


def expire_token():
    """Make an access token expired now, as if its lifetime had passed."""
    value = (request.get_json(silent=True) or {}).get("token")
    row = find_token(value, "access_token") if isinstance(value, str) and value else None
    if row is None:
        raise not_found()
    row.issued_at -= row.expires_in + 1
    return jsonify({"expires_in": row.expires_in, "issued_at": row.issued_at})


def _roles(raw) -> dict[Company, str]:
    if not isinstance(raw, list) or not all(isinstance(i, dict) for i in raw):
        raise validation_error({"companies": ["A list of {id, role} objects is required."]})
    roles = {}
    for item in raw:
        company = db().get(Company, item.get("id")) if isinstance(item.get("id"), int) else None
        if company is None or not valid_role(item.get("role", "admin")):
            raise validation_error({"companies": [f"Unknown company or role: {item}."]})
        roles[company] = item.get("role", "admin")
    return roles
