"""The live document operations (live only; the spec names just GET /2/documents/).

GET  /1/documents/, /1/documents/files/   filtered bare lists (see sandbox/documents/filters.py)
GET  /2/documents/<id>/                   the document's descriptive fields
POST /2/documents/create/                 {"documents": [{content (base64), filename, ...}],
                                          "source"} -> 201 {"processed": [{success, id|reason}]}
POST /2/documents/update/<id>/            partial update of the descriptive fields
POST /2/documents/delete/                 filters -> 204
POST /1/documents/attach/, detach/        filters + target_type, target_id -> 200, no body
POST /2/documents/search/                 {"name", "size", "company_ids"} -> the same file
GET  /2/document-types/                   [{id, name}]
"""
from __future__ import annotations

import base64
import binascii

from flask import jsonify
from sqlalchemy import select

from sandbox.catalog.rules import company_row, json_object
from sandbox.core.auth import current_company, require_write
from sandbox.core.db import db
from sandbox.core.errors import ApiError, validation_error
from sandbox.core.files import signed_url
from sandbox.core.filesniff import sniff
from sandbox.core.model import utcnow
from sandbox.documents import filters
from sandbox.documents.model import ATTACHABLE, Document, DocumentType
from sandbox.documents.rules import descriptive_values, json_reason, owned, same_file_query
from sandbox.expenses.model import Expense
from sandbox.expenses.serialize import iso
from sandbox.incomes.model import Income

TARGETS = {"expense": Expense, "income": Income}
NO_FILTER = "At least one filter is required; an empty one would act on every document."


def detail(document_id: int):
    """GET /2/documents/<id>/."""
    return jsonify(detail_json(company_row(Document, document_id)))


def detail_json(doc: Document) -> dict:
    """The live detail record."""
    return {"id": doc.id, "title": doc.title, "summary": doc.summary,
            "document_type_id": doc.document_type_id, "keywords": list(doc.keywords or []),
            "simple_tag_ids": [t.id for t in doc.simple_tags], "sender": doc.sender,
            "recipient": doc.recipient, "contains_payable": doc.contains_payable}


def list_v1():
    """GET /1/documents/: a bare list, filtered and ordered."""
    rows = _filtered(filters.from_query())
    types = {t.id: t.name for t in db().scalars(select(DocumentType))}
    return jsonify([{"id": d.id, "created_at": iso(d.created_at), "title": d.title,
                     "filename": d.filename, "simple_tag_ids": [t.id for t in d.simple_tags],
                     "document_type_name": types.get(d.document_type_id),
                     "link": signed_url("document", d.id, d.filename)[0]} for d in rows])


def files_v1():
    """GET /1/documents/files/: a download link per matching document."""
    rows = _filtered(filters.from_query())
    return jsonify([{"id": d.id, "url": signed_url("document", d.id, d.filename)[0]}
                    for d in rows])


def create():
    """POST /2/documents/create/: each file is stored or refused on its own."""
    require_write()
    body = json_object()
    items = body.get("documents")
    if not isinstance(items, list) or not items:
        raise validation_error({"documents": ["A non-empty list of documents is required."]})
    source = str(body.get("source") or "api")[:40]
    return jsonify({"processed": [_create_one(item, source) for item in items]}), 201


def update(document_id: int):
    """POST /2/documents/update/<id>/: the fields sent are validated, then stored together."""
    require_write()
    doc = company_row(Document, document_id)
    values = descriptive_values(json_object())
    for name, value in values.items():
        setattr(doc, name, value)
    if values:
        doc.is_new, doc.updated_at = False, utcnow()
    db().flush()
    return jsonify(detail_json(doc))


def delete_matching():
    """POST /2/documents/delete/: delete every document the filters match; 204."""
    require_write()
    found = filters.from_body(json_object())
    if not filters.has_filter(found):
        raise validation_error(non_field=[NO_FILTER])
    for doc in _filtered(found):
        db().delete(doc)
    db().flush()
    return "", 204


def attach():
    """POST /1/documents/attach/: attach the matching documents to one expense or income."""
    require_write()
    body = json_object()
    target_type, target_id = _target(body)
    for doc in _matching(body):
        doc.is_attached, doc.attached_to_type, doc.attached_to_id = True, target_type, target_id
    db().flush()
    return "", 200


def detach():
    """POST /1/documents/detach/: detach the matching documents (from the target, if named)."""
    require_write()
    body = json_object()
    target = _target(body) if body.get("target_type") or body.get("target_id") else None
    for doc in _matching(body):
        if target is None or (doc.attached_to_type, doc.attached_to_id) == target:
            doc.is_attached, doc.attached_to_type, doc.attached_to_id = False, None, None
    db().flush()
    return "", 200


def search():
    """POST /2/documents/search/: documents with exactly this file name and size."""
    name, size = same_file_query(json_object())
    rows = db().scalars(select(Document).where(
        Document.company_id == current_company().id, Document.filename == name,
        Document.size == size).order_by(Document.id))
    return jsonify([{"id": d.id, "company_id": d.company_id, "filename": d.filename,
                     "size": d.size, "created_at": iso(d.created_at)} for d in rows])


def document_types():
    """GET /2/document-types/: the service's document types, by name."""
    rows = db().scalars(select(DocumentType).order_by(DocumentType.name))
    return jsonify([{"id": t.id, "name": t.name} for t in rows])










def _create_one(item, source: str) -> dict:
    if not isinstance(item, dict):
        return {"success": False, "reason": "Expected an object with content and filename."}
    try:
        data = base64.b64decode(item.get("content") or "", validate=True)
    except (binascii.Error, ValueError, TypeError):
        return {"success": False, "reason": "Content is not valid base64."}
    kind, filename = sniff(data), str(item.get("filename") or "")
    if kind is None:
        return {"success": False, "reason": "Not a PDF, JPEG, PNG or XML file."}
    try:
        values = descriptive_values(item)
    except ApiError as exc:
        return {"success": False, "reason": json_reason(exc.body)}
    doc = Document(company_id=current_company().id, filename=filename or f"document.{kind}",
                   extension=kind, size=len(data), content=data, origin=source, **values)
    db().add(doc)
    db().flush()
    return {"success": True, "id": doc.id}




def _matching(body: dict) -> list[Document]:
    found = filters.from_body(body)
    if not filters.has_filter(found):
        raise validation_error(non_field=[NO_FILTER])
    return _filtered(found)


def _target(body: dict) -> tuple[str, int]:
    kind, target_id = body.get("target_type"), body.get("target_id")
    if kind not in ATTACHABLE:
        raise validation_error({"target_type": [f"Must be one of {', '.join(ATTACHABLE)}."]})
    if owned(TARGETS[kind], target_id, current_company().id) is None:
        raise validation_error({"target_id": [f'Invalid pk "{target_id}" - object does not '
                                              "exist."]})
    return kind, target_id


def _filtered(found: dict) -> list[Document]:
    stmt = select(Document).where(*filters.conditions(found, current_company().id))
    return list(db().scalars(stmt.order_by(*filters.ordering(found))))


