"""Ledger numbers (live-only, docs/sandbox-operations.md): {id, name, code} list, create,
update, delete."""
from __future__ import annotations

from flask import jsonify

from sandbox.catalog.rules import (
    company_row,
    company_rows,
    delete_unused,
    ids_of,
    items_of,
    json_body,
    name_errors,
)
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.errors import ApiError, validation_error
from sandbox.ledger.model import LedgerNumber

CODE_LENGTH = 40
DUPLICATE_CODE = "A ledger number with this code already exists."


def ledger_json(row: LedgerNumber) -> dict:
    """The ledger number reference object: id, name, code (code may be null)."""
    return {"id": row.id, "name": row.name, "code": row.code}


def list_ledger_numbers():
    """Plain list ordered by code (numbers without a code last), then name."""
    rows = company_rows(LedgerNumber, current_company().id)
    rows.sort(key=lambda r: (r.code is None, r.code or "", r.name.casefold(), r.id))
    return jsonify([ledger_json(r) for r in rows])


def create_ledger_numbers():
    """Create each valid item; the rest are reported with a reason (live: 200, two lists).

    A code already used by another ledger number of the company, or twice in the request,
    is not created (inferred: the live answer names a reason, not the rule)."""
    require_write()
    items, _ = items_of(json_body(), "ledger_numbers")
    taken = {r.code for r in company_rows(LedgerNumber, current_company().id) if r.code}
    created, refused = [], []
    for item in items:
        values, errors = clean_ledger(item, partial=False)
        code = values.get("code")
        reason = _reason(errors) or (DUPLICATE_CODE if code and code in taken else None)
        if reason:
            refused.append({**_echo(item), "reason": reason})
            continue
        row = LedgerNumber(company_id=current_company().id, **{"code": None, **values})
        db().add(row)
        created.append(row)
        taken.add(code)
    db().flush()
    return jsonify({"created_ledger_numbers": [ledger_json(r) for r in created],
                    "not_created_ledger_numbers": refused})


def update_ledger_number(ledger_number_id: int):
    """Partial update of name and/or code."""
    require_write()
    row = company_row(LedgerNumber, ledger_number_id)
    values, errors = clean_ledger(json_body(), partial=True)
    if errors:
        raise validation_error(errors)
    for key, value in values.items():
        setattr(row, key, value)
    return jsonify(ledger_json(row))


def delete_ledger_numbers():
    """Delete by id: 204; any unknown, foreign or used id refuses all (400 with the report)."""
    require_write()
    report = delete_unused(LedgerNumber, ids_of(json_body()), "ledger_number")
    if report["failed_ids"]:
        raise ApiError(400, {key: report[key] for key in ("failed_ids", "reasons",
                                                            "references")})
    return "", 204


def _reason(errors: dict) -> str | None:
    return "; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()) or None


def _echo(item) -> dict:
    item = item if isinstance(item, dict) else {}
    return {key: item.get(key) if isinstance(item.get(key), str) else None
            for key in ("code", "name")}


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
    # A code may be null; otherwise it is checked like a name (text, not blank, not too long).
    return [] if value is None else name_errors(value, CODE_LENGTH)
