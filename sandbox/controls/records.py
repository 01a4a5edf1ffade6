"""Sandbox-only: inbox documents, partner state and synced taxes set from outside the API."""
from __future__ import annotations

import base64
import binascii

from flask import jsonify, request

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.demo_files import minimal_pdf, minimal_png
from sandbox.core.errors import not_found, validation_error
from sandbox.core.values import choice_msg
from sandbox.documents.model import ATTACHABLE, Document
from sandbox.documents.routes import document_json
from sandbox.expenses.filters import parse_timestamp
from sandbox.partners.model import Partner
from sandbox.partners.routes import partner_json
from sandbox.taxes.monthly import monthly
from sandbox.taxes.rules import SALARIES, TAXES
from sandbox.taxes.values import SOURCES
from sandbox.taxes.writes import create_records


def add_document():
    """{company_id, filename, content_base64?, attached_to?: {type, id}, is_filed?,
    is_ai_recognition_allowed?, origin?, created_at?}; a made-up file if no content."""
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
    _document_state(doc, spec)
    db().add(doc)
    db().flush()
    return jsonify(document_json(doc)), 201


def _document_state(doc: Document, spec: dict) -> None:
    """The live states no API operation sets: filed, AI recognition, origin, arrival time."""
    for flag in ("is_filed", "is_ai_recognition_allowed"):
        if flag in spec:
            setattr(doc, flag, bool(spec[flag]))
    if "origin" in spec:
        doc.origin = str(spec["origin"])[:40]
    if spec.get("created_at"):
        doc.created_at = parse_timestamp("created_at", str(spec["created_at"]))


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


def change_partner(partner_id: int):
    """Set a partner's source (manual, api, or an integration label)."""
    partner = db().get(Partner, partner_id)
    if partner is None:
        raise not_found()
    data = request.get_json(silent=True) or {}
    if not isinstance(data.get("source"), str) or not data["source"].strip():
        raise validation_error({"source": ["A non-empty string is required."]})
    partner.source = data["source"].strip()
    return jsonify(partner_json(partner))


RECORDS = {"taxes": TAXES, "salaries": SALARIES}


def sync_records(records: str):
    """Create records for company_id with a source label: {company_id, source, items: [...]}."""
    spec = request.get_json(silent=True) or {}
    company = db().get(Company, spec.get("company_id") or 0)
    if company is None:
        raise not_found()
    source = spec.get("source", "nav")
    if source not in SOURCES:
        raise validation_error({"source": [choice_msg(source)]})
    kind = RECORDS[records]
    created = create_records(kind, spec.get("items", []), company=company, source=source)
    return jsonify(monthly(created, kind, detail=True)), 201
