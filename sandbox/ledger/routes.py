"""Ledger numbers (upstream-notes): {id, name, code} list, create, update, delete."""
from __future__ import annotations

from flask import jsonify

from sandbox.catalog.rules import (
    BLANK,
    company_rows,
    delete_unused,
    ids_of,
    items_of,
    json_body,
    name_errors,
    raise_item_errors,
)
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.ledger.model import LedgerNumber

CODE_LENGTH = 40


def ledger_json(row: LedgerNumber) -> dict:
    """The ledger number reference object: id, name, code (code may be null)."""
    return {"id": row.id, "name": row.name, "code": row.code}


def list_ledger_numbers():
    """Plain list ordered by code (numbers without a code last), then name."""
    rows = company_rows(LedgerNumber, current_company().id)
    rows.sort(key=lambda r: (r.code is None, r.code or "", r.name.casefold(), r.id))
    return jsonify([ledger_json(r) for r in rows])


def create_ledger_numbers():
    """Create one ({name, code}) or several; names need not be unique."""
    require_write()
    items, as_list = items_of(json_body(), "ledger_numbers")
    parsed = [clean_ledger(item, partial=False) for item in items]
    raise_item_errors([errors for _, errors in parsed], as_list)
    rows = [LedgerNumber(company_id=current_company().id, **{"code": None, **values})
            for values, _ in parsed]
    db().add_all(rows)
    db().flush()
    body = [ledger_json(r) for r in rows]
    return jsonify(body if as_list else body[0]), 201


def update_ledger_number(ledger_number_id: int):
    """Partial update of name and/or code."""
    require_write()
    row = db().get(LedgerNumber, ledger_number_id)
    if row is None or row.company_id != current_company().id:
        raise not_found()
    values, errors = clean_ledger(json_body(), partial=True)
    if errors:
        raise validation_error(errors)
    for key, value in values.items():
        setattr(row, key, value)
    return jsonify(ledger_json(row))


def delete_ledger_numbers():
    """Delete by id; unknown, foreign and in-use ids go to failed_ids without failing."""
    require_write()
    return jsonify(delete_unused(LedgerNumber, ids_of(json_body()), "ledger_number"))


def clean_ledger(item, partial: bool) -> tuple[dict, dict]:
    """Validated values and DRF field errors of one ledger number body."""
    if not isinstance(item, dict):
        return {}, {"non_field_errors": ["Expected an object."]}
    values, errors = {}, {}
    if "name" in item or not partial:
        messages = name_errors(item.get("name"), max_length=200)
        if messages:
            errors["name"] = messages
        else:
            values["name"] = item["name"].strip()
    if "code" in item:
        messages = _code_errors(item["code"])
        if messages:
            errors["code"] = messages
        else:
            values["code"] = item["code"].strip() if item["code"] is not None else None
    return values, errors


def _code_errors(value) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, str):
        return ["Not a valid string."]
    if not value.strip():
        return [BLANK]
    if len(value.strip()) > CODE_LENGTH:
        return [f"Ensure this field has no more than {CODE_LENGTH} characters."]
    return []
