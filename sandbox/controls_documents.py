"""Sandbox-only: put a document into a company's inbox, as if it had been e-mailed in."""
from __future__ import annotations

import base64
import binascii

from flask import Blueprint, jsonify, request

from .api_documents import document_json
from .db import db
from .demo_files import minimal_pdf, minimal_png
from .errors import not_found, validation_error
from .models import Company
from .models.documents import ATTACHABLE, Document

bp = Blueprint("sandbox_documents", __name__, url_prefix="/_sandbox")


@bp.post("/documents/")
def add_document():
    """{company_id, filename, content_base64?, attached_to?: {type, id}}; made-up file if none."""
    spec = request.get_json(silent=True) or {}
    company = db().get(Company, spec.get("company_id") or 0)
    if company is None:
        raise not_found()
    filename = spec.get("filename") or "dokumentum.pdf"
    content = _content(spec, filename)
    doc = Document(company_id=company.id, filename=filename,
                   extension=filename.rsplit(".", 1)[-1].lower() if "." in filename else "",
                   size=len(content), content=content)
    _attach(doc, spec.get("attached_to"))
    db().add(doc)
    db().flush()
    return jsonify(document_json(doc)), 201


def _content(spec: dict, filename: str) -> bytes:
    if spec.get("content_base64") is None:
        return minimal_png() if filename.lower().endswith(".png") else minimal_pdf([filename])
    try:
        return base64.b64decode(spec["content_base64"], validate=True)
    except (binascii.Error, TypeError):
        raise validation_error({"content_base64": ["Invalid base64."]}) from None


def _attach(doc: Document, target) -> None:
    if target is None:
        return
    if not isinstance(target, dict) or target.get("type") not in ATTACHABLE \
            or not isinstance(target.get("id"), int):
        raise validation_error({"attached_to": ["Expected {type: expense|income, id}."]})
    doc.is_attached, doc.attached_to_type, doc.attached_to_id = True, target["type"], target["id"]
