"""Expense types and revenue types (spec 2.6, 4.6): sorted list, create, bulk update, delete."""
from __future__ import annotations

from flask import Blueprint, jsonify

from .auth import current_company, require_write
from .catalog_rules import (
    company_rows,
    create_named,
    delete_unused,
    ids_of,
    items_of,
    json_body,
    name_problem,
    name_sort_key,
)
from .errors import validation_error
from .models import ExpenseType, RevenueType

bp = Blueprint("types", __name__)

KIND = "<any('expense-types', 'revenue-types'):kind>"
MODELS = {"expense-types": ExpenseType, "revenue-types": RevenueType}
# Income policies can name a revenue type; no policy names an expense type.
POLICY_KEYS = {"revenue-types": "revenue_type"}
DUPLICATE = "A type with this name already exists."


def type_json(row) -> dict:
    """The type object of spec 2.6."""
    return {"id": row.id, "name": row.name, "is_external": row.is_external}


@bp.get(f"/2/{KIND}/")
def list_types(kind: str):
    """Plain list sorted by name, case- and accent-insensitively."""
    rows = sorted(company_rows(MODELS[kind], current_company().id),
                  key=lambda r: name_sort_key(r.name))
    return jsonify([type_json(r) for r in rows])


@bp.post(f"/2/{KIND}/create/")
def create_types(kind: str):
    """Create one type ({name}) or several ([{name}, ...]); all or none, each external."""
    require_write()
    items, as_list = items_of(json_body(), kind.replace("-", "_"))
    created = create_named(MODELS[kind], items, as_list, DUPLICATE)
    body = [type_json(r) for r in created]
    return jsonify(body if as_list else body[0]), 201


@bp.post(f"/2/{KIND}/update/")
def update_types(kind: str):
    """Rename by id in bulk; unknown, foreign or invalid items go to failed_ids, the rest apply."""
    require_write()
    items, _ = items_of(json_body(), kind.replace("-", "_"))
    _require_ids(items)
    rows = company_rows(MODELS[kind], current_company().id)
    by_id = {r.id: r for r in rows}
    updated, failed, errors = [], [], {}
    for item in items:
        problem = _name_problem(item, rows, item["id"]) if item["id"] in by_id else {
            "id": [f'Invalid pk "{item["id"]}" - object does not exist.']}
        if problem:
            failed.append(item["id"])
            errors[str(item["id"])] = problem
            continue
        row = by_id[item["id"]]
        row.name, row.is_external = item["name"].strip(), True
        updated.append(type_json(row))
    return jsonify({"updated": updated, "failed_ids": failed, "errors": errors})


@bp.post(f"/2/{KIND}/delete/")
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


def _name_problem(item, rows: list, skip_id: int | None = None) -> dict:
    return name_problem(item, rows, DUPLICATE, skip_id)
