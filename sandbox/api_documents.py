"""Documents (spec 2.11, 4.9): cursor list of attached and unattached files with download links."""
from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, jsonify
from sqlalchemy import select

from .artifacts import StoredFile, register_loader, signed_url
from .auth import current_company
from .catalog_rules import bool_arg
from .models.documents import Document
from .pagination import cursor_page

bp = Blueprint("documents", __name__)


def document_json(doc: Document) -> dict:
    """A document: file facts, attachment, and a signed token-free download link."""
    url, expires = signed_url("document", doc.id, doc.filename)
    attached = {"type": doc.attached_to_type, "id": doc.attached_to_id} \
        if doc.is_attached and doc.attached_to_type else None
    return {"id": doc.id, "filename": doc.filename, "extension": doc.extension,
            "size": doc.size, "is_attached": doc.is_attached, "attached_to": attached,
            "created_at": _timestamp(doc.created_at), "url": url,
            "expires_at": datetime.fromtimestamp(expires, UTC).isoformat()}


@bp.get("/2/documents/")
def list_documents():
    """Attached and unattached documents, newest first; is_attached=true|false narrows."""
    stmt = select(Document).where(Document.company_id == current_company().id)
    attached = bool_arg("is_attached")
    if attached is not None:
        stmt = stmt.where(Document.is_attached == attached)
    return jsonify(cursor_page(stmt, Document.id, lambda rows: [document_json(d) for d in rows]))


def _load(session, record_id: int) -> StoredFile | None:
    doc = session.get(Document, record_id)
    return None if doc is None else StoredFile(data=doc.content, filename=doc.filename)


def _timestamp(value: datetime) -> str:
    # SQLite hands back naive datetimes; they were stored in UTC.
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


register_loader("document", _load)
