"""Taxes and salaries views (spec 2.9, 2.10, 4.5): monthly listings, bulk writes, /1/ paths."""
from __future__ import annotations

from flask import jsonify, request

from sandbox.catalog.rules import json_body
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.pagination import page_number_page
from sandbox.taxes.monthly import filtered, monthly, record_json, wants_detail
from sandbox.taxes.rules import SALARIES, SALARIES_V1, TAXES
from sandbox.taxes.values import TAX_CODES, code_json
from sandbox.taxes.writes import create_records, delete_records, update_records

LISTINGS = {"monthly-taxes": TAXES, "monthly-salaries": SALARIES}
RECORDS = {"taxes": TAXES, "salaries": SALARIES}
# The /1/ create takes the live /1/ request, which carries no tax_number.
RECORDS_V1 = {**RECORDS, "salaries": SALARIES_V1}


def list_monthly(listing: str):
    """Records grouped by payment month; fields=taxes|salaries adds each month's records."""
    kind = LISTINGS[listing]
    records = list(db().scalars(filtered(kind, current_company().id)))
    return jsonify(monthly(records, kind, wants_detail(kind)))


def list_monthly_v1(listing: str):
    """The live /1/ listing: the same months as /2/, as a bare list."""
    kind = LISTINGS[listing]
    records = list(db().scalars(filtered(kind, current_company().id)))
    return jsonify(monthly(records, kind, wants_detail(kind))[kind.monthly_key])


def create(records: str):
    """Bulk create; answers the monthly listing of the new records, with their detail."""
    require_write()
    kind = RECORDS[records]
    return jsonify(monthly(create_records(kind, json_body()), kind, detail=True)), 201


def update(records: str):
    """Bulk update by id; answers the monthly listing of the updated records."""
    require_write()
    kind = RECORDS[records]
    return jsonify(monthly(update_records(kind, json_body()), kind, detail=True))


def delete(records: str):
    """Delete by id; 204 with no content."""
    require_write()
    delete_records(RECORDS[records], json_body())
    return "", 204


def tax_codes():
    """The tax codes a tax may name instead of name and account_number."""
    return jsonify([code_json(code) for code in sorted(TAX_CODES)])


SUCCESSORS = {"list_v1": "{monthly}", "create_v1": "/2/{records}/create/",
              "update_v1": "/2/{records}/update/", "delete_v1": "/2/{records}/delete/"}


def mark_deprecated(response):
    """On the deprecated /1/ paths: the Deprecation header and a Link to the successor."""
    records = (request.view_args or {}).get("records")
    successor = SUCCESSORS.get((request.endpoint or "").rsplit(".", 1)[-1])
    if records in RECORDS and successor:
        path = successor.format(records=records, monthly=RECORDS[records].monthly_path)
        response.headers["Deprecation"] = "true"
        response.headers["Link"] = f'<{path}>; rel="successor-version"'
    return response


def list_v1(records: str):
    """Page-numbered flat list of records, filtered like the monthly listing."""
    kind = RECORDS[records]
    stmt = filtered(kind, current_company().id).order_by(kind.model.month.desc(),
                                                           kind.model.id)
    return jsonify(page_number_page(stmt, lambda rows: [record_json(r, kind) for r in rows]))


def create_v1(records: str):
    """Deprecated bulk create (successor /2/<records>/create/): the months as a bare list; a
    salary needs no tax_number here."""
    require_write()
    kind = RECORDS_V1[records]
    return jsonify(_months_v1(create_records(kind, json_body()), kind)), 201


def update_v1(records: str):
    """Deprecated bulk update (successor /2/<records>/update/): the months as a bare list."""
    require_write()
    kind = RECORDS[records]
    return jsonify(_months_v1(update_records(kind, json_body()), kind))


def _months_v1(changed: list, kind) -> list:
    # The live /1/ answers are a list of months (live-api-shapes.json: response_root "array").
    return monthly(changed, kind, detail=True)[kind.monthly_key]


def delete_v1(records: str):
    """Deprecated delete (successor /2/<records>/delete/)."""
    return delete(records)
