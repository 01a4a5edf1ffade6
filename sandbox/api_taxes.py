"""Taxes and salaries (spec 2.9, 2.10, 4.5): monthly listings and bulk create/update/delete."""
from __future__ import annotations

from flask import Blueprint, jsonify

from .auth import current_company, require_write
from .catalog_rules import json_body
from .db import db
from .taxes_codes import TAX_CODES, code_json
from .taxes_monthly import filtered, monthly, wants_detail
from .taxes_rules import SALARIES, TAXES
from .taxes_writes import create_records, delete_records, update_records

bp = Blueprint("taxes", __name__)

LISTINGS = {"monthly-taxes": TAXES, "monthly-salaries": SALARIES}
RECORDS = {"taxes": TAXES, "salaries": SALARIES}
LISTING = "<any('monthly-taxes', 'monthly-salaries'):listing>"
KIND = "<any('taxes', 'salaries'):records>"


@bp.get(f"/2/{LISTING}/")
def list_monthly(listing: str):
    """Records grouped by payment month; fields=taxes|salaries adds each month's records."""
    kind = LISTINGS[listing]
    records = list(db().scalars(filtered(kind, current_company().id)))
    return jsonify(monthly(records, kind, wants_detail(kind)))


@bp.post(f"/2/{KIND}/create/")
def create(records: str):
    """Bulk create; answers the monthly listing of the new records, with their detail."""
    require_write()
    kind = RECORDS[records]
    return jsonify(monthly(create_records(kind, json_body()), kind, detail=True)), 201


@bp.post(f"/2/{KIND}/update/")
def update(records: str):
    """Bulk update by id; answers the monthly listing of the updated records."""
    require_write()
    kind = RECORDS[records]
    return jsonify(monthly(update_records(kind, json_body()), kind, detail=True))


@bp.post(f"/2/{KIND}/delete/")
def delete(records: str):
    """Delete by id; 204 with no content."""
    require_write()
    delete_records(RECORDS[records], json_body())
    return "", 204


@bp.get("/1/tax-codes/")
def tax_codes():
    """The tax codes a tax may name instead of name and account_number."""
    return jsonify([code_json(code) for code in sorted(TAX_CODES)])
