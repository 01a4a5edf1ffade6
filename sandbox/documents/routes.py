"""Documents (spec 2.11, 4.9) and artifacts: document list, artifact records, downloads."""
from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote

from flask import Response, jsonify, request
from sqlalchemy import select

from sandbox.core.auth import current_company
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.core.files import StoredFile, load, register_loader, signed_url, verify
from sandbox.core.pagination import MAX_PAGE_SIZE, cursor_page, page_number_page
from sandbox.core.query import flag
from sandbox.core.values import INT_MSG
from sandbox.documents.model import Document
from sandbox.expenses.fields import MAX_ID
from sandbox.expenses.model import Expense, ExpenseFile
from sandbox.incomes.model import Income, IncomeArtifact


def document_json(doc: Document) -> dict:
    """A document: file facts, attachment, and a signed token-free download link."""
    url, expires = signed_url("document", doc.id, doc.filename)
    attached = {"type": doc.attached_to_type, "id": doc.attached_to_id} \
        if doc.is_attached and doc.attached_to_type else None
    return {"id": doc.id, "filename": doc.filename, "extension": doc.extension,
            "size": doc.size, "is_attached": doc.is_attached, "attached_to": attached,
            "created_at": _timestamp(doc.created_at), "url": url,
            "expires_at": datetime.fromtimestamp(expires, UTC).isoformat()}


def list_documents():
    """Attached and unattached documents, newest first; is_attached=true|false narrows."""
    stmt = select(Document).where(Document.company_id == current_company().id)
    attached = flag("is_attached")
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


def _expense_infos(company_id: int, ids: list[int]):
    return select(Expense.id, Expense.artifact_filename.label("filename"),
                  Expense.artifact_extension.label("extension")) \
        .where(Expense.company_id == company_id, Expense.id.in_(ids))


def _income_infos(company_id: int, ids: list[int]):
    return select(Income.id, IncomeArtifact.filename, IncomeArtifact.extension) \
        .outerjoin(IncomeArtifact, IncomeArtifact.income_id == Income.id) \
        .where(Income.company_id == company_id, Income.id.in_(ids))


def _load_expense_file(session, record_id: int) -> StoredFile | None:
    row = session.execute(select(Expense.artifact_filename, ExpenseFile.data)
                          .join(ExpenseFile, ExpenseFile.expense_id == Expense.id)
                          .where(Expense.id == record_id)).first()
    return None if row is None else StoredFile(data=row.data, filename=row.artifact_filename)


def _load_income_file(session, record_id: int) -> StoredFile | None:
    row = session.scalar(select(IncomeArtifact).where(IncomeArtifact.income_id == record_id))
    return None if row is None else StoredFile(data=row.content, filename=row.filename)


SOURCES = {"expense": (Expense, _expense_infos), "income": (Income, _income_infos)}
register_loader("expense", _load_expense_file)
register_loader("income", _load_income_file)


def artifacts(kind: str):
    """Artifact records for the ids asked (GET ?ids= or POST {"ids": [...]})."""
    if kind not in SOURCES:
        raise not_found()
    ids = _requested_ids()
    if ids is None:
        model = SOURCES[kind][0]
        stmt = select(model.id).where(model.company_id == current_company().id) \
            .order_by(model.id)
        return jsonify(page_number_page(stmt, lambda page_ids: _records(kind, page_ids)))
    return jsonify(_records(kind, ids))


def _records(kind: str, ids: list[int]) -> list[dict]:
    rows = {r.id: r for r in db().execute(SOURCES[kind][1](current_company().id, ids))}
    return [_record(kind, rows[pk]) for pk in ids if pk in rows]


def _requested_ids() -> list[int] | None:
    if request.method == "POST":
        body = request.get_json(silent=True)
        raw = body.get("ids") if isinstance(body, dict) else None
        if not isinstance(raw, list):
            raise validation_error({"ids": ["Expected a list of ids."]})
    else:
        values = request.args.getlist("ids")
        if not values:
            return None
        raw = [part.strip() for value in values for part in value.split(",") if part.strip()]
    if len(raw) > MAX_PAGE_SIZE:
        raise validation_error({"ids": [f"At most {MAX_PAGE_SIZE} ids per request."]})
    if not all(_is_id(value) for value in raw):
        raise validation_error({"ids": [INT_MSG]})
    return list(dict.fromkeys(int(value) for value in raw))


def _is_id(value) -> bool:
    return (not isinstance(value, bool) and isinstance(value, int | str)
            and str(value).isdecimal() and int(value) <= MAX_ID)


def _record(kind: str, row) -> dict:
    # Live keys the record by expense_id / income_id; id stays for the spec's readers.
    record = {"id": row.id, f"{kind}_id": row.id, "has_artifact": row.filename is not None}
    if record["has_artifact"]:
        url, expires = signed_url(kind, row.id, row.filename)
        record.update(filename=row.filename, extension=row.extension, url=url,
                      expires_at=datetime.fromtimestamp(expires, UTC).isoformat())
    return record


def download(kind: str, record_id: int, _name: str = ""):
    """Serve a stored file to anyone holding a valid, unexpired signed link."""
    verify(kind, record_id, request.args.get("expires"), request.args.get("sig"))
    stored = load(db(), kind, record_id)
    response = Response(stored.data, content_type=stored.content_type)
    response.headers["Content-Disposition"] = _disposition(stored.filename)
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _disposition(filename: str) -> str:
    fallback = filename.encode("ascii", "replace").decode().replace('"', "").replace("?", "_")
    return f"inline; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename)}"
