"""Deprecated /1/ endpoints for taxes and salaries (spec 4.5, 9.2), served with a pointer."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from . import api_taxes
from .auth import current_company
from .pagination import page_number_page
from .taxes_monthly import filtered, record_json
from .taxes_rules import SALARIES, TAXES

bp = Blueprint("taxes_v1", __name__, url_prefix="/1")

RECORDS = {"taxes": TAXES, "salaries": SALARIES}
KIND = "<any('taxes', 'salaries'):records>"
SUCCESSORS = {"list_v1": "{monthly}", "create_v1": "/2/{records}/create/",
              "update_v1": "/2/{records}/update/", "delete_v1": "/2/{records}/delete/"}


@bp.after_request
def _mark_deprecated(response):
    records = (request.view_args or {}).get("records")
    successor = SUCCESSORS.get((request.endpoint or "").rsplit(".", 1)[-1])
    if records in RECORDS and successor:
        path = successor.format(records=records, monthly=RECORDS[records].monthly_path)
        response.headers["Deprecation"] = "true"
        response.headers["Link"] = f'<{path}>; rel="successor-version"'
    return response


@bp.get(f"/{KIND}/")
def list_v1(records: str):
    """Page-numbered flat list of records, filtered like the monthly listing."""
    kind = RECORDS[records]
    stmt = filtered(kind, current_company().id).order_by(kind.model.month.desc(),
                                                           kind.model.id)
    return jsonify(page_number_page(stmt, lambda rows: [record_json(r, kind) for r in rows]))


@bp.post(f"/{KIND}/create/")
def create_v1(records: str):
    """Deprecated bulk create (successor /2/<records>/create/)."""
    return api_taxes.create(records)


@bp.post(f"/{KIND}/update/")
def update_v1(records: str):
    """Deprecated bulk update (successor /2/<records>/update/)."""
    return api_taxes.update(records)


@bp.post(f"/{KIND}/delete/")
def delete_v1(records: str):
    """Deprecated delete (successor /2/<records>/delete/)."""
    return api_taxes.delete(records)
