"""Company VAT categories (spec 2.8, 4.8): list with type, create, update by id."""
from __future__ import annotations

import re

from flask import Blueprint, jsonify, request

from .auth import current_company, require_write
from .catalog_rules import REQUIRED, company_rows, items_of, json_body, name_errors
from .catalog_rules import raise_item_errors as raise_errors
from .db import db
from .errors import not_found, validation_error
from .models import VatCategory

bp = Blueprint("vat_categories", __name__, url_prefix="/2/accounting/vat-categories")

VAT_AREAS = ("HU", "EU", "3RD")
TYPES = ("cost", "revenue")
COUNTRY = re.compile(r"^[A-Z]{2}$")


def vat_json(row: VatCategory) -> dict:
    """The VAT category object of spec 2.8 (percent as a float)."""
    return {"id": row.id, "name": row.name, "percent": float(row.percent),
            "vat_area": row.vat_area, "country": row.country, "type": row.type}


@bp.get("/")
def list_vat_categories():
    """Plain list by id; ?type=cost|revenue narrows it."""
    rows = sorted(company_rows(VatCategory, current_company().id), key=lambda r: r.id)
    wanted = request.args.get("type")
    if wanted:
        if wanted not in TYPES:
            raise validation_error({"type": [_choice(wanted)]})
        rows = [r for r in rows if r.type == wanted]
    return jsonify([vat_json(r) for r in rows])


@bp.post("/create/")
def create_vat_categories():
    """Create one or several categories; type defaults to cost; all or none."""
    require_write()
    items, as_list = items_of(json_body(), "vat_categories")
    parsed = [clean_vat(item, partial=False) for item in items]
    raise_errors([errors for _, errors in parsed], as_list)
    rows = [VatCategory(company_id=current_company().id, **{"vat_area": "HU", "country": "HU",
                                                           "type": "cost", **values})
            for values, _ in parsed]
    db().add_all(rows)
    db().flush()
    return jsonify({"created_vat_categories": [vat_json(r) for r in rows]}), 201


@bp.route("/update/<int:vat_category_id>/", methods=["POST", "PATCH"])
def update_vat_category(vat_category_id: int):
    """Partial update of one category, type included."""
    require_write()
    row = db().get(VatCategory, vat_category_id)
    if row is None or row.company_id != current_company().id:
        raise not_found()
    body = json_body()
    values, errors = clean_vat(body, partial=True)
    if errors:
        raise validation_error(errors)
    for key, value in values.items():
        setattr(row, key, value)
    return jsonify(vat_json(row))


def clean_vat(item, partial: bool) -> tuple[dict, dict]:
    """Validated values and DRF field errors of one category body."""
    if not isinstance(item, dict):
        return {}, {"non_field_errors": ["Expected an object."]}
    values, errors = {}, {}
    for key, check in CHECKS.items():
        if key not in item:
            if not partial and key in ("name", "percent"):
                errors[key] = [REQUIRED]
            continue
        value, messages = check(item[key])
        if messages:
            errors[key] = messages
        else:
            values[key] = value
    return values, errors


def _name(value):
    return (value.strip() if not name_errors(value) else None), name_errors(value)


def _percent(value):
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None, ["A valid number is required."]
    try:
        number = float(value)
    except ValueError:
        return None, ["A valid number is required."]
    if not 0 <= number <= 100:
        return None, ["Ensure this value is between 0 and 100."]
    return number, []


def _vat_area(value):
    return (value, []) if value in VAT_AREAS else (None, [_choice(value)])


def _country(value):
    if isinstance(value, str) and COUNTRY.match(value.upper()):
        return value.upper(), []
    return None, ["Enter a two-letter ISO country code."]


def _type(value):
    return (value, []) if value in TYPES else (None, [_choice(value)])


def _choice(value) -> str:
    return f'"{value}" is not a valid choice.'


CHECKS = {"name": _name, "percent": _percent, "vat_area": _vat_area, "country": _country,
          "type": _type}
