"""Rules of the live document fields: what update and create accept, and search by file."""
from __future__ import annotations

from sandbox.catalog.model import Tag
from sandbox.core.auth import current_company
from sandbox.core.db import db
from sandbox.core.errors import ApiError, validation_error
from sandbox.core.values import BOOL_MSG, INT_MSG, REQUIRED_MSG
from sandbox.documents.model import DocumentType
from sandbox.expenses.fields import MAX_ID

TEXT_FIELDS = {"title": 200, "summary": 2000, "sender": 200, "recipient": 200}

def same_file_query(body) -> tuple[str, int]:
    """name and size of a search-by-file body; company_ids may name only the token's company."""
    if not isinstance(body, dict):
        raise validation_error(non_field=["Invalid data. Expected a dictionary."])
    name, size, companies = body.get("name"), body.get("size"), body.get("company_ids")
    errors = {}
    if not isinstance(name, str) or not name:
        errors["name"] = [REQUIRED_MSG]
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        errors["size"] = [INT_MSG]
    if companies is not None and (not isinstance(companies, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in companies)):
        errors["company_ids"] = ["A list of company ids is required."]
    if errors:
        raise validation_error(errors)
    if any(c != current_company().id for c in companies or []):
        raise ApiError(403, "Company ID does not match")
    return name, size

def descriptive_values(body: dict) -> dict:
    """The descriptive fields present in body, typed and checked (400 naming each field)."""
    values, errors = {}, {}
    for name, limit in TEXT_FIELDS.items():
        if name in body:
            if not isinstance(body[name], str) or len(body[name]) > limit:
                errors[name] = [f"A text of at most {limit} characters is required."]
            else:
                values[name] = body[name]
    if "contains_payable" in body:
        if not isinstance(body["contains_payable"], bool):
            errors["contains_payable"] = [BOOL_MSG]
        values["contains_payable"] = body["contains_payable"]
    if "keywords" in body:
        keywords = body["keywords"]
        if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
            errors["keywords"] = ["A list of texts is required."]
        values["keywords"] = keywords
    _references(body, values, errors)
    if errors:
        raise validation_error(errors)
    return values

def _references(body: dict, values: dict, errors: dict) -> None:
    company_id = current_company().id
    if "document_type_id" in body:
        type_id = body["document_type_id"]
        found = _document_type(type_id) if type_id is not None else None
        if type_id is not None and found is None:
            errors["document_type_id"] = [f'Invalid pk "{type_id}" - object does not exist.']
        values["document_type_id"] = type_id
    if "simple_tag_ids" in body:
        ids = body["simple_tag_ids"]
        tags = [owned(Tag, i, company_id) for i in ids] if isinstance(ids, list) else [None]
        if None in tags:
            errors["simple_tag_ids"] = ["Every id must name one of the company's tags."]
        values["simple_tags"] = tags

def owned(model, row_id, company_id: int):
    """The company's row of model with this id, or None."""
    if not isinstance(row_id, int) or isinstance(row_id, bool) or not 0 < row_id <= MAX_ID:
        return None
    row = db().get(model, row_id)
    return row if row is not None and row.company_id == company_id else None

def json_reason(errors: dict) -> str:
    """A 400 body as one line: field: message; ..."""
    return "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in errors.items())


def _document_type(type_id) -> DocumentType | None:
    if not isinstance(type_id, int) or isinstance(type_id, bool) or not 0 < type_id <= MAX_ID:
        return None
    return db().get(DocumentType, type_id)
