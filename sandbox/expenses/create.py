"""Building new expenses: from the multipart create request and from sandbox controls.

POST /2/expenses/create/ takes multipart/form-data: `file` (required; its content must sniff as
PDF, JPEG, PNG or XML whatever its name says) and optional fields. Text fields (invoice_number,
note, secondary_id, payment_method, vat_area, issued_at, fulfilled_at, due_at) are taken as sent.
Other fields are JSON: partner, currency (ids), exchange_rate, tags and simple_tags (a JSON list,
a comma list "1,2", or the field repeated), custom_fields (a JSON object of text values) and
assignments (a JSON list of assignment objects, at least one when sent). A form field `data`
may carry all of them as one JSON object; separate form fields win over it.
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from sqlalchemy import func, select

from sandbox.core.errors import validation_error
from sandbox.core.filesniff import CONTENT_TYPES, sniff
from sandbox.core.model import utcnow
from sandbox.core.values import REQUIRED_MSG
from sandbox.expenses.fields import (
    ASSIGNMENT_FIELDS,
    HEADER_FIELDS,
    NEW_ASSIGNMENT_REQUIRED,
    Ctx,
    FieldError,
    canonical,
)
from sandbox.expenses.model import Expense, ExpenseAssignment, ExpenseFile

TEXT_FIELDS = ("invoice_number", "note", "secondary_id", "payment_method", "vat_area",
               "issued_at", "fulfilled_at", "due_at")
LIST_FIELDS = ("tags", "simple_tags")
MAX_FILE_BYTES = 10 * 1024 * 1024
NOT_A_REAL_FILE = ("Upload a valid PDF, JPEG, PNG or XML file. The content of the uploaded file "
                   "is none of these, whatever its name says.")


def form_data(form) -> dict:
    """The create request's form fields as one dict of JSON-ish values."""
    data: dict[str, Any] = {}
    if form.get("data"):
        data.update(_json(form["data"], "data"))
    for key in form:
        if key == "data":
            continue
        if key in LIST_FIELDS:
            data[key] = _list_value(form.getlist(key))
        else:
            data[key] = form[key] if key in TEXT_FIELDS else _loose_json(form[key])
    return data


def _json(raw: str, name: str) -> dict:
    try:
        value = json.loads(raw)
    except ValueError:
        raise validation_error({name: ["Value must be valid JSON."]}) from None
    if not isinstance(value, dict):
        raise validation_error({name: ["Expected a JSON object."]})
    return value


def _loose_json(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _list_value(values: list[str]) -> Any:
    if len(values) == 1:
        parsed = _loose_json(values[0])
        if isinstance(parsed, list) or values[0] == "":
            return parsed if isinstance(parsed, list) else []
        return [v.strip() for v in values[0].split(",") if v.strip()]
    return values


def checked_upload(upload) -> tuple[str, bytes, str]:
    """(filename, bytes, sniffed kind) of the uploaded file, or a 400 on the file field."""
    if upload is None or not upload.filename:
        raise validation_error({"file": ["No file was submitted."]})
    data = upload.read(MAX_FILE_BYTES + 1)
    try:
        return upload.filename, data, _kind(data)
    except FieldError as exc:
        raise validation_error({"file": [str(exc)]}) from None


def json_uploads(body) -> list[tuple[str, bytes, str]]:
    """(filename, bytes, kind) per file of the live JSON upload, or a 400 naming each bad one.

    Body {"expenses": [{"content": <base64>, "filename"}], "source"}."""
    items = body.get("expenses") if isinstance(body, dict) else None
    if not isinstance(items, list) or not items:
        raise validation_error({"expenses": ["A non-empty list of files is required."]})
    found, errors = [], []
    for item in items:
        try:
            found.append(_decoded(item))
            errors.append({})
        except FieldError as exc:
            errors.append({"content": [str(exc)]})
    if any(errors):
        raise validation_error({"expenses": errors})
    return found


def _decoded(item) -> tuple[str, bytes, str]:
    if not isinstance(item, dict) or not isinstance(item.get("content"), str):
        raise FieldError("Each file needs base64 content and a filename.")
    try:
        data = base64.b64decode(item["content"], validate=True)
    except (binascii.Error, ValueError):
        raise FieldError("Content is not valid base64.") from None
    kind = _kind(data)
    return str(item.get("filename") or f"upload.{kind}"), data, kind


def _kind(data: bytes) -> str:
    if not data:
        raise FieldError("The submitted file is empty.")
    if len(data) > MAX_FILE_BYTES:
        raise FieldError("The file may be at most 10 MB.")
    kind = sniff(data)
    if kind is None:
        raise FieldError(NOT_A_REAL_FILE)
    return kind


def build_expense(ctx: Ctx, data: dict, allowed: tuple[str, ...]) -> Expense:
    """A new expense of ctx.company from data (only the `allowed` header fields), or a 400."""
    data = canonical(data)
    expense = Expense(company_id=ctx.company.id, currency_id=ctx.company.default_currency_id,
                      created_at=utcnow(), updated_at=utcnow(), tags=[], simple_tags=[],
                      custom_fields={}, invoice_number="", note="", secondary_id="")
    errors: dict[str, Any] = {}
    for name, raw in data.items():
        if name in allowed:
            _put(HEADER_FIELDS[name], expense, raw, ctx, errors)
    if "assignments" in data:
        _add_assignments(ctx, expense, data["assignments"], errors)
    if errors:
        raise validation_error(errors)
    expense.filing_number = _filing_number(ctx)
    expense.refresh_derived()
    return expense


def _put(field, row, raw: Any, ctx: Ctx, errors: dict) -> None:
    try:
        field.put(row, field.parse(raw, ctx), ctx)
    except FieldError as exc:
        errors[field.name] = [str(exc)]


def _add_assignments(ctx: Ctx, expense: Expense, raw: Any, errors: dict) -> None:
    if not isinstance(raw, list) or not raw:
        errors["assignments"] = ["Expected a non-empty list of assignment objects."]
        return
    item_errors = [_new_assignment(ctx, expense, canonical(item) if isinstance(item, dict)
                                   else None) for item in raw]
    if any(item_errors):
        errors["assignments"] = item_errors


def _new_assignment(ctx: Ctx, expense: Expense, item: dict | None) -> dict:
    if item is None:
        return {"non_field_errors": ["Invalid data. Expected a dictionary."]}
    row, errors = ExpenseAssignment(job_number="", tags=[]), {}
    for name, raw in item.items():
        if name in ASSIGNMENT_FIELDS:
            _put(ASSIGNMENT_FIELDS[name], row, raw, ctx, errors)
        elif name != "id":
            errors[name] = ["This field is read-only or unknown."]
    for name in NEW_ASSIGNMENT_REQUIRED:
        if name not in item:
            errors.setdefault(name, [REQUIRED_MSG])
    expense.assignments.append(row)
    return errors


def attach_file(expense: Expense, filename: str, data: bytes, kind: str) -> None:
    """Store the artifact: bytes apart, name and sniffed extension on the expense."""
    expense.artifact_filename = filename
    expense.artifact_extension = kind
    expense.artifact_created_at = utcnow()
    expense.file = ExpenseFile(data=data, content_type=CONTENT_TYPES[kind])


def _filing_number(ctx: Ctx) -> str:
    count = ctx.session.scalar(select(func.count(Expense.id))
                               .where(Expense.company_id == ctx.company.id)) or 0
    return f"K-{utcnow().year}-{count + 1:05d}"
