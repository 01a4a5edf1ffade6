"""Rules shared by the catalogue endpoints: bodies, names, boolean filters, sorting, references."""
from __future__ import annotations

import unicodedata
from typing import Any

from flask import request
from sqlalchemy import select

from sandbox.core.db import db
from sandbox.core.errors import ApiError, not_found, validation_error
from sandbox.core.model import Base
from sandbox.core.values import BLANK_MSG, REQUIRED_MSG, STRING_MSG, too_long_msg

NOT_AN_OBJECT = "Invalid data. Expected a dictionary."
NOT_JSON_OBJECT = "Expected a JSON object."  # the sandbox controls' wording


def json_body() -> Any:
    """The parsed JSON body; a 400 with a DRF parse-error detail when it is not JSON."""
    body = request.get_json(silent=True)
    if body is None:
        raise ApiError(400, "JSON parse error - expected a JSON body.")
    return body


def json_object(message: str = NOT_AN_OBJECT) -> dict:
    """The JSON body, which must be an object: a 400 with `message` as its non-field error
    otherwise (the API's DRF text by default; the sandbox controls say "Expected a JSON
    object.")."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise validation_error(non_field=[message])
    return body


def items_of(body: Any, key: str) -> tuple[list, bool]:
    """A body that is one object, a list, or {key: [...]} as (items, answered_as_list)."""
    if isinstance(body, dict) and isinstance(body.get(key), list):
        return body[key], True
    if isinstance(body, list):
        return body, True
    if isinstance(body, dict):
        return [body], False
    raise validation_error(non_field=["Expected an object or a list of objects."])


def ids_of(body: Any) -> list[int]:
    """The ids of a delete body: {"ids": [...]} or a bare list; integers only."""
    ids = body.get("ids") if isinstance(body, dict) else body
    if not isinstance(ids, list) or not all(_is_int(i) for i in ids):
        raise validation_error({"ids": ["Expected a list of integers."]})
    return list(dict.fromkeys(ids))


def name_errors(value: Any, max_length: int = 100) -> list[str]:
    """DRF CharField messages for a required, non-blank name."""
    if value is None:
        return [REQUIRED_MSG]
    if not isinstance(value, str):
        return [STRING_MSG]
    if not value.strip():
        return [BLANK_MSG]
    if len(value.strip()) > max_length:
        return [too_long_msg(max_length)]
    return []


def fold(name: str) -> str:
    """Case- and accent-insensitive form of a name (Á and á compare like a)."""
    decomposed = unicodedata.normalize("NFD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_sort_key(name: str) -> tuple[str, str]:
    """Sort key: letters first by base letter, then accented after plain (a, á, b...)."""
    return fold(name), name.casefold()


def find_duplicate(rows: list, name: str, skip_id: int | None = None):
    """The row among rows whose name equals name case-insensitively, except skip_id."""
    wanted = name.strip().casefold()
    return next((r for r in rows if r.name.casefold() == wanted and r.id != skip_id), None)


def references(table: str, ids: list[int], aliases: tuple[str, ...] = ()) -> dict[int, list]:
    """Which tables refer to each id of `table`, by foreign key or by a column named in aliases."""
    found: dict[int, list[str]] = {}
    if not ids:
        return found
    for column in _referencing_columns(table, aliases):
        for value in db().scalars(select(column).where(column.in_(ids)).distinct()):
            found.setdefault(value, []).append(column.table.name)
    return found


def _referencing_columns(table: str, aliases: tuple[str, ...]) -> list:
    # Found at run time so areas built elsewhere (incomes, expenses) count without imports.
    columns = []
    for candidate in Base.metadata.sorted_tables:
        for column in candidate.columns:
            by_key = any(fk.column.table.name == table for fk in column.foreign_keys)
            if (by_key or column.name in aliases) and candidate.name != table:
                columns.append(column)
    return columns


def policy_references(policies: dict | None, key: str, ids: list[int]) -> set[int]:
    """The ids among ids that the company's income policies name under key."""
    found: set[int] = set()
    _walk(policies, key, found)
    return found & set(ids)


def _walk(node: Any, key: str, found: set[int]) -> None:
    if isinstance(node, dict):
        for name, value in node.items():
            if name == key:
                values = value if isinstance(value, list) else [value]
                found.update(v for v in values if _is_int(v))
            _walk(value, key, found)
    elif isinstance(node, list):
        for value in node:
            _walk(value, key, found)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def raise_item_errors(errors: list[dict], as_list: bool) -> None:
    """400 when any item failed: a DRF list of per-item errors, or one object for one item."""
    if not any(errors):
        return
    raise ApiError(400, errors if as_list else errors[0])


def company_rows(model, company_id: int) -> list:
    """Every row of a catalogue model belonging to the company."""
    return list(db().scalars(select(model).where(model.company_id == company_id)))


def company_row(model, row_id: int):
    """The row of `model` with that id if it is the token's company's; a 404 otherwise (path
    ids beyond 64 bits are refused by the routing already)."""
    row = db().get(model, row_id)
    if row is None or row.company_id != _company().id:
        raise not_found()
    return row


def delete_unused(model, ids: list[int], policy_key: str | None) -> dict:
    """Delete the company's rows among ids that nothing refers to; report the rest and why."""
    company = _company()
    own = {r.id: r for r in company_rows(model, company.id) if r.id in ids}
    used = references(model.__tablename__, list(own))
    if policy_key:
        for row_id in policy_references(company.income_policies, policy_key, list(own)):
            used.setdefault(row_id, []).append("income_policies")
    deleted = [i for i in ids if i in own and i not in used]
    for row_id in deleted:
        db().delete(own[row_id])
    return {"deleted": deleted, "failed_ids": [i for i in ids if i not in deleted],
            "reasons": {str(i): "in_use" if i in own else "not_found"
                        for i in ids if i not in deleted},
            "references": {str(i): sorted(set(t)) for i, t in used.items()}}


def _company():
    from sandbox.core.auth import current_company

    return current_company()


def name_problem(item: Any, rows: list, duplicate: str, skip_id: int | None = None) -> dict:
    """The errors of one {name} item: blank, too long, or the name of another row."""
    if not isinstance(item, dict):
        return {"non_field_errors": ["Expected an object."]}
    messages = name_errors(item.get("name"))
    if not messages and find_duplicate(rows, item["name"], skip_id):
        messages = [duplicate]
    return {"name": messages} if messages else {}


def create_named(model, items: list, as_list: bool, duplicate: str) -> list:
    """Create external records by name, all or none (400 naming the refused items)."""
    rows, errors, created = company_rows(model, _company().id), [], []
    for item in items:
        errors.append(name_problem(item, rows, duplicate))
        if not errors[-1]:
            row = model(company_id=_company().id, name=item["name"].strip(), is_external=True)
            rows.append(row)
            created.append(row)
    raise_item_errors(errors, as_list)
    db().add_all(created)
    db().flush()
    return created
