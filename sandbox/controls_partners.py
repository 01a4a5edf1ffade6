"""Sandbox-only partner control: mark a partner as synced from an integration (or manual).

PATCH /_sandbox/partners/<id>/  {"source": "billingo"}  -> 200 with the partner.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .api_partners import partner_json
from .db import db
from .errors import not_found, validation_error
from .models import Partner

bp = Blueprint("partner_controls", __name__, url_prefix="/_sandbox")


@bp.patch("/partners/<int:partner_id>/")
def change_partner(partner_id: int):
    """Set a partner's source (manual, api, or an integration label)."""
    partner = db().get(Partner, partner_id)
    if partner is None:
        raise not_found()
    data = request.get_json(silent=True) or {}
    if not isinstance(data.get("source"), str) or not data["source"].strip():
        raise validation_error({"source": ["A non-empty string is required."]})
    partner.source = data["source"].strip()
    return jsonify(partner_json(partner))
