"""POST /2/audit-xml/: audit exports of an invoicing program become incomes (live only).

Body {"audit_xmls": [{"content": <base64>, "filename"}]} -> 201, no body. Each invoice of each
file is imported as an income from source "audit-xml" (sandbox/audit/rules.py). Any
unreadable file or invalid invoice refuses the whole request (one request, one transaction).
"""
from __future__ import annotations

from flask import request

from sandbox.audit.rules import AuditFileError, decode, import_invoice, invoices, record_export
from sandbox.company.model import Company
from sandbox.core.auth import current_company, current_token, require_write
from sandbox.core.db import db
from sandbox.core.errors import ApiError, validation_error

FIELD = "audit_xmls"


def upload():
    """Import every invoice of every uploaded export; 201 with no body."""
    require_write()
    company = current_company()
    files = _files(request.get_json(silent=True))
    for index, item in enumerate(files):
        data, found = _read(item, index, len(files))
        created = [_import(body, company, index, len(files)) for body in found]
        record_export(company, str(item.get("filename") or ""), data, created,
                      current_token().user_name)
    db().flush()
    return "", 201


def _files(body) -> list[dict]:
    if not isinstance(body, dict):
        raise validation_error(non_field=["Invalid data. Expected a dictionary."])
    files = body.get(FIELD)
    if not isinstance(files, list) or not files:
        raise validation_error({FIELD: ["A non-empty list of files is required."]})
    if not all(isinstance(item, dict) for item in files):
        raise validation_error({FIELD: ["Each file is an object with content and filename."]})
    return files


def _read(item: dict, index: int, count: int) -> tuple[bytes, list[dict]]:
    try:
        data = decode(item.get("content"))
        return data, invoices(data)
    except AuditFileError as exc:
        raise _file_error(index, count, {"content": [str(exc)]}) from None


def _import(body: dict, company: Company, index: int, count: int) -> int | None:
    try:
        return import_invoice(body, company)
    except ApiError as exc:
        number = body.get("invoice_number")
        raise _file_error(index, count, {"invoices": [{"invoice_number": number,
                                                       **exc.body}]}) from None


def _file_error(index: int, count: int, errors: dict) -> ApiError:
    """DRF's shape for a list field: one error object per file, empty for the good ones."""
    return validation_error({FIELD: [errors if i == index else {} for i in range(count)]})
