"""Catalog views (spec 2.5, 4.7): tags, expense/revenue types, currencies, VAT categories."""
from __future__ import annotations

import re
from functools import partial

from flask import jsonify, request
from sqlalchemy import select

from sandbox.catalog.model import Currency, ExpenseType, RevenueType, Tag, VatCategory
from sandbox.catalog.rules import (
    company_row,
    company_rows,
    create_named,
    delete_unused,
    fold,
    ids_of,
    items_of,
    json_body,
    name_errors,
    name_problem,
    name_sort_key,
    raise_item_errors,
)
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.errors import ApiError, validation_error
from sandbox.core.query import flag
from sandbox.core.values import REQUIRED_MSG, checked, choice_msg, parse_percent, too_long_msg

TAG_DUPLICATE = "A tag with this name already exists."


def named_json(row) -> dict:
    """A tag (spec 2.5) or an expense or revenue type (spec 2.6): the same three keys."""
    return {"id": row.id, "name": row.name, "is_external": row.is_external}


def list_tags():
    """Plain list sorted by name; name filters by substring (any case), is_external by flag."""
    tags = company_rows(Tag, current_company().id)
    needle, external = request.args.get("name"), flag("is_external")
    if needle:
        tags = [t for t in tags if fold(needle) in fold(t.name)]
    if external is not None:
        tags = [t for t in tags if t.is_external == external]
    tags.sort(key=lambda t: name_sort_key(t.name))
    return jsonify([named_json(t) for t in tags])


def create_tags():
    """Create one tag ({name}) or several ([{name}, ...]); API-made tags are external."""
    require_write()
    items, as_list = items_of(json_body(), "tags")
    created = create_named(Tag, items, as_list, TAG_DUPLICATE)
    body = [named_json(t) for t in created]
    return jsonify(body if as_list else body[0])  # 200, as live answers


def update_tags():
    """Rename one tag ({id, name}) or several; an edited tag becomes external."""
    require_write()
    items, as_list = items_of(json_body(), "tags")
    rows = company_rows(Tag, current_company().id)
    by_id = {t.id: t for t in rows}
    errors, updated = [], []
    for item in items:
        errors.append(_update_problem(item, by_id, rows))
        if not errors[-1]:
            tag = by_id[item["id"]]
            tag.name, tag.is_external = item["name"].strip(), True
            updated.append(tag)
    raise_item_errors(errors, as_list)
    body = [named_json(t) for t in updated]
    return jsonify(body if as_list else body[0])


def delete_tags():
    """Delete the tags no record refers to; the rest are listed in not_deleted."""
    require_write()
    ids = ids_of(json_body())
    result = delete_unused(Tag, ids, "tags")
    return jsonify({"deleted": result["deleted"], "not_deleted": result["failed_ids"],
                    "references": result["references"],
                    "not_found": [int(i) for i, why in result["reasons"].items()
                                  if why == "not_found"]})


def _tag_name_problem(item, existing: list, skip_id: int | None = None) -> dict:
    return name_problem(item, existing, TAG_DUPLICATE, skip_id)


def _update_problem(item, by_id: dict, rows: list) -> dict:
    if not isinstance(item, dict):
        return {"non_field_errors": ["Expected an object."]}
    tag_id = item.get("id")
    if tag_id is None:
        return {"id": [REQUIRED_MSG]}
    if not isinstance(tag_id, int) or isinstance(tag_id, bool) or tag_id not in by_id:
        return {"id": [f'Invalid pk "{tag_id}" - object does not exist.']}
    return _tag_name_problem(item, rows, skip_id=tag_id)


MODELS = {"expense-types": ExpenseType, "revenue-types": RevenueType}
# Income policies can name a revenue type; no policy names an expense type.
POLICY_KEYS = {"revenue-types": "revenue_type"}
TYPE_DUPLICATE = "A type with this name already exists."


def list_types(kind: str):
    """Plain list sorted by name, case- and accent-insensitively."""
    rows = sorted(company_rows(MODELS[kind], current_company().id),
                  key=lambda r: name_sort_key(r.name))
    return jsonify([named_json(r) for r in rows])


def create_types(kind: str):
    """Create one type ({name}) or several ([{name}, ...]); all or none, each external."""
    require_write()
    items, as_list = items_of(json_body(), kind.replace("-", "_"))
    created = create_named(MODELS[kind], items, as_list, TYPE_DUPLICATE)
    body = [named_json(r) for r in created]
    return jsonify(body if as_list else body[0]), 201


def update_types(kind: str):
    """Rename by id in bulk; unknown, foreign or invalid items go to failed_ids, the rest apply."""
    require_write()
    items, _ = items_of(json_body(), kind.replace("-", "_"))
    _require_ids(items)
    rows = company_rows(MODELS[kind], current_company().id)
    by_id = {r.id: r for r in rows}
    updated, failed, errors = [], [], {}
    for item in items:
        problem = _type_name_problem(item, rows, item["id"]) if item["id"] in by_id else {
            "id": [f'Invalid pk "{item["id"]}" - object does not exist.']}
        if problem:
            failed.append(item["id"])
            errors[str(item["id"])] = problem
            continue
        row = by_id[item["id"]]
        row.name, row.is_external = item["name"].strip(), True
        updated.append(named_json(row))
    return jsonify({"updated": updated, "failed_ids": failed, "errors": errors})


def delete_types(kind: str):
    """Delete by id; unknown, foreign and in-use ids go to failed_ids without failing."""
    require_write()
    result = delete_unused(MODELS[kind], ids_of(json_body()), POLICY_KEYS.get(kind))
    return jsonify(result)


def _require_ids(items: list) -> None:
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int) \
                or isinstance(item.get("id"), bool):
            raise validation_error({"id": ["Every item needs an integer id."]})


def _type_name_problem(item, rows: list, skip_id: int | None = None) -> dict:
    return name_problem(item, rows, TYPE_DUPLICATE, skip_id)


def currency_list():
    """GET /2/currencies/: [{id, code, name}] ordered by id."""
    rows = db().scalars(select(Currency).order_by(Currency.id))
    return jsonify([{"id": c.id, "code": c.code, "name": c.name} for c in rows])


VAT_AREAS = ("HU", "EU", "3RD")
CODE_TAKEN = "A VAT category with this code already exists."
TYPES = ("cost", "revenue")
COUNTRY = re.compile(r"^[A-Z]{2}$")


def vat_json(row: VatCategory) -> dict:
    """The VAT category object of spec 2.8 (percent as a float)."""
    return {"id": row.id, "name": row.name, "code": row.code, "percent": float(row.percent),
            "vat_area": row.vat_area, "country": row.country, "type": row.type}


def list_vat_categories():
    """Plain list by id; ?type=cost|revenue narrows it."""
    rows = sorted(company_rows(VatCategory, current_company().id), key=lambda r: r.id)
    wanted = request.args.get("type")
    if wanted:
        if wanted not in TYPES:
            raise validation_error({"type": [choice_msg(wanted)]})
        rows = [r for r in rows if r.type == wanted]
    return jsonify([vat_json(r) for r in rows])


def create_vat_categories():
    """Create one or several categories (type defaults to cost). Invalid values are a DRF 400
    for the whole body; a category whose code the company already uses is not created and is
    listed, as live lists it, in not_created_vat_categories with the reason. 200."""
    require_write()
    items, as_list = items_of(json_body(), "vat_categories")
    parsed = [clean_vat(item, partial=False) for item in items]
    raise_item_errors([errors for _, errors in parsed], as_list)
    rows = company_rows(VatCategory, current_company().id)
    created, refused = [], []
    for values, _ in parsed:
        if _code_taken(values.get("code"), rows):
            refused.append({"code": values["code"], "name": values["name"],
                            "reason": CODE_TAKEN})
            continue
        row = VatCategory(company_id=current_company().id,
                          **{"vat_area": "HU", "country": "HU", "type": "cost", **values})
        rows.append(row)
        created.append(row)
    db().add_all(created)
    db().flush()
    return jsonify({"created_vat_categories": [vat_json(r) for r in created],
                    "not_created_vat_categories": refused})


def _code_taken(code: str | None, rows: list, skip_id: int | None = None) -> dict:
    if code and any(r.code == code and (skip_id is None or r.id != skip_id) for r in rows):
        return {"code": [CODE_TAKEN]}
    return {}


def delete_vat_categories():
    """Delete by id (live): 204; any unknown, foreign or used id refuses all (400, report)."""
    require_write()
    report = delete_unused(VatCategory, ids_of(json_body()), None)
    if report["failed_ids"]:
        raise ApiError(400, {key: report[key] for key in ("failed_ids", "reasons",
                                                            "references")})
    return "", 204


def update_vat_category(vat_category_id: int):
    """Partial update of one category, type included."""
    require_write()
    row = company_row(VatCategory, vat_category_id)
    body = json_body()
    values, errors = clean_vat(body, partial=True)
    errors = errors or _code_taken(values.get("code"), company_rows(
        VatCategory, row.company_id), skip_id=row.id)
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
                errors[key] = [REQUIRED_MSG]
            continue
        value, messages = check(item[key])
        if messages:
            errors[key] = messages
        else:
            values[key] = value
    return values, errors


def _name(value):
    return (value.strip() if not name_errors(value) else None), name_errors(value)


def _code(value):
    if value is None:
        return None, []
    if not isinstance(value, str) or not value.strip():
        return None, ["Enter a code or null."]
    if len(value.strip()) > 20:
        return None, [too_long_msg(20)]
    return value.strip(), []


def _vat_area(value):
    return (value, []) if value in VAT_AREAS else (None, [choice_msg(value)])


def _country(value):
    if isinstance(value, str) and COUNTRY.match(value.upper()):
        return value.upper(), []
    return None, ["Enter a two-letter ISO country code."]


def _type(value):
    return (value, []) if value in TYPES else (None, [choice_msg(value)])


CHECKS = {"name": _name, "code": _code, "percent": partial(checked, parse_percent),
          "vat_area": _vat_area, "country": _country, "type": _type}
