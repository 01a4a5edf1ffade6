"""Sandbox-only: deliver taxes and salaries as an integration would (synced, source label)."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .db import db
from .errors import not_found, validation_error
from .models import Company
from .taxes_codes import SOURCES
from .taxes_monthly import monthly
from .taxes_rules import SALARIES, TAXES
from .taxes_writes import create_records

bp = Blueprint("sandbox_taxes", __name__, url_prefix="/_sandbox")

RECORDS = {"taxes": TAXES, "salaries": SALARIES}


@bp.post("/<any('taxes', 'salaries'):records>/sync/")
def sync_records(records: str):
    """Create records for company_id with a source label: {company_id, source, items: [...]}."""
    spec = request.get_json(silent=True) or {}
    company = db().get(Company, spec.get("company_id") or 0)
    if company is None:
        raise not_found()
    source = spec.get("source", "nav")
    if source not in SOURCES:
        raise validation_error({"source": [f'"{source}" is not a valid choice.']})
    kind = RECORDS[records]
    created = create_records(kind, spec.get("items", []), company=company, source=source)
    return jsonify(monthly(created, kind, detail=True)), 201
