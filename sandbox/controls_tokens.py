"""Sandbox-only token control: change a token's user after sign-in (e.g. two-factor switched off).

PATCH /_sandbox/tokens/  {"token": "<clear token>", "user_has_2fa": false}  -> 200 with the
token's public fields (never the token itself).
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .db import db
from .errors import not_found, validation_error
from .models import ApiToken, hash_token

bp = Blueprint("token_controls", __name__, url_prefix="/_sandbox")


@bp.patch("/tokens/")
def change_token():
    """Set `user_has_2fa` of the token given in clear (looked up by its hash)."""
    data = request.get_json(silent=True) or {}
    if not isinstance(data.get("token"), str) or not data["token"]:
        raise validation_error({"token": ["A non-empty string is required."]})
    if not isinstance(data.get("user_has_2fa"), bool):
        raise validation_error({"user_has_2fa": ["Must be true or false."]})
    row = db().query(ApiToken).filter_by(token_hash=hash_token(data["token"])).one_or_none()
    if row is None:
        raise not_found()
    row.user_has_2fa = data["user_has_2fa"]
    return jsonify({"id": row.id, "company_id": row.company_id, "role": row.role,
                    "user_name": row.user_name, "user_has_2fa": row.user_has_2fa})
