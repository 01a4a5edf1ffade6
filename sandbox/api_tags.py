"""Tags (spec 2.5, 4.7): list with filters, create, update, delete of unreferenced tags."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .auth import current_company, require_write
from .catalog_rules import (
    bool_arg,
    company_rows,
    create_named,
    delete_unused,
    fold,
    ids_of,
    items_of,
    json_body,
    name_problem,
    name_sort_key,
    raise_item_errors,
)
from .models import Tag

bp = Blueprint("tags", __name__)

DUPLICATE = "A tag with this name already exists."


def tag_json(tag: Tag) -> dict:
    """The tag object of spec 2.5."""
    return {"id": tag.id, "name": tag.name, "is_external": tag.is_external}


@bp.get("/2/tags/")
def list_tags():
    """Plain list sorted by name; name filters by substring (any case), is_external by flag."""
    tags = company_rows(Tag, current_company().id)
    needle, external = request.args.get("name"), bool_arg("is_external")
    if needle:
        tags = [t for t in tags if fold(needle) in fold(t.name)]
    if external is not None:
        tags = [t for t in tags if t.is_external == external]
    tags.sort(key=lambda t: name_sort_key(t.name))
    return jsonify([tag_json(t) for t in tags])


@bp.post("/2/tags/create/")
def create_tags():
    """Create one tag ({name}) or several ([{name}, ...]); API-made tags are external."""
    require_write()
    items, as_list = items_of(json_body(), "tags")
    created = create_named(Tag, items, as_list, DUPLICATE)
    body = [tag_json(t) for t in created]
    return jsonify(body if as_list else body[0]), 201


@bp.patch("/2/tags/update/")
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
    body = [tag_json(t) for t in updated]
    return jsonify(body if as_list else body[0])


@bp.post("/2/tags/delete/")
def delete_tags():
    """Delete the tags no record refers to; the rest are listed in not_deleted."""
    require_write()
    ids = ids_of(json_body())
    result = delete_unused(Tag, ids, "tags")
    return jsonify({"deleted": result["deleted"], "not_deleted": result["failed_ids"],
                    "references": result["references"],
                    "not_found": [i for i, why in result["reasons"].items()
                                  if why == "not_found"]})


def _name_problem(item, existing: list, skip_id: int | None = None) -> dict:
    return name_problem(item, existing, DUPLICATE, skip_id)


def _update_problem(item, by_id: dict, rows: list) -> dict:
    if not isinstance(item, dict):
        return {"non_field_errors": ["Expected an object."]}
    tag_id = item.get("id")
    if tag_id is None:
        return {"id": ["This field is required."]}
    if not isinstance(tag_id, int) or isinstance(tag_id, bool) or tag_id not in by_id:
        return {"id": [f'Invalid pk "{tag_id}" - object does not exist.']}
    return _name_problem(item, rows, skip_id=tag_id)
