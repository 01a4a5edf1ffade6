"""The live document filters, one set for GET /1/documents[/files] (query string) and for the
bodies of /1/documents/attach, /1/documents/detach and /2/documents/delete (JSON).

List filters take repeated keys or comma lists in a query, arrays in a body. Dates are
YYYY-MM-DD over date_field (created_at, the default, or updated_at), both ends inclusive.
search looks for a case-insensitive substring in search_fields (default: title, filename,
summary, sender, recipient).
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sqlalchemy import or_, select

from sandbox.core import query
from sandbox.core.errors import validation_error
from sandbox.core.values import BOOL_MSG
from sandbox.documents.model import Document, document_simple_tag
from sandbox.expenses.filters import invalid_date

BOOLEANS = ("is_new", "is_updated", "contains_payable", "is_ai_recognition_allowed",
            "is_filed", "is_attached")
ID_LISTS = ("ids", "with_tag_ids", "without_tag_ids", "with_document_type_ids",
            "without_document_type_ids")
TEXT_LISTS = ("origin", "search_fields")
DATE_FIELDS = ("created_at", "updated_at")
SEARCH_FIELDS = ("title", "filename", "summary", "sender", "recipient")
ORDERINGS = {"created_at": Document.created_at, "updated_at": Document.updated_at,
             "title": Document.title, "filename": Document.filename, "id": Document.id}
FILTER_KEYS = BOOLEANS + ID_LISTS + TEXT_LISTS + ("from_date", "to_date", "search")
TEXT_ONES = ("search", "date_field", "ordering")


def from_query() -> dict:
    """The filters of the request's query string, typed (400 on malformed values)."""
    found: dict = {name: query.flag(name) for name in BOOLEANS}
    found.update({name: query.integers(name) for name in ID_LISTS})
    found.update({name: query.values(name) for name in TEXT_LISTS})
    found.update({name: query.text(name) for name in TEXT_ONES})
    found.update({name: query.day(name) for name in ("from_date", "to_date")})
    return _checked({k: v for k, v in found.items() if v not in (None, [])})


def from_body(body: dict) -> dict:
    """The filters of a JSON body, typed (400 on malformed values)."""
    found: dict = {}
    for name in BOOLEANS:
        if body.get(name) is not None:
            if not isinstance(body[name], bool):
                raise validation_error({name: [BOOL_MSG]})
            found[name] = body[name]
    for name in ID_LISTS + TEXT_LISTS:
        if body.get(name) is not None:
            if not isinstance(body[name], list):
                raise validation_error({name: ['Expected a list of items.']})
            found[name] = _ids(name, body[name]) if name in ID_LISTS \
                else [str(v) for v in body[name]]
    for name in TEXT_ONES:
        if body.get(name) not in (None, ""):
            found[name] = str(body[name])
    for name in ("from_date", "to_date"):
        if body.get(name) not in (None, ""):
            found[name] = _date(name, str(body[name]))
    return _checked(found)


def has_filter(filters: dict) -> bool:
    """True when at least one filter narrows the set (ordering and date_field do not)."""
    return any(name in filters for name in FILTER_KEYS)


def conditions(filters: dict, company_id: int) -> list:
    """SQL conditions for the filters."""
    found = [Document.company_id == company_id]
    found += [_flag(name) == value for name, value in filters.items() if name in BOOLEANS]
    found += _id_conditions(filters) + _date_conditions(filters)
    if filters.get("origin"):
        found.append(Document.origin.in_(filters["origin"]))
    if filters.get("search"):
        needle = filters["search"].lower()
        columns = [getattr(Document, f) for f in filters.get("search_fields", SEARCH_FIELDS)]
        found.append(or_(*(c.ilike(f"%{needle}%") for c in columns)))
    return found


def ordering(filters: dict):
    """ORDER BY for `ordering` (a field, - for descending); newest first by default."""
    raw = filters.get("ordering", "-created_at")
    column = ORDERINGS[raw.lstrip("-")]
    return (column.desc(), Document.id.desc()) if raw.startswith("-") \
        else (column.asc(), Document.id.asc())


def _flag(name: str):
    # is_updated is derived: a document is updated once it has an updated_at.
    return Document.updated_at.is_not(None) if name == "is_updated" else getattr(Document, name)


def _id_conditions(filters: dict) -> list:
    found = []
    if "ids" in filters:
        found.append(Document.id.in_(filters["ids"]))
    if "with_tag_ids" in filters:
        found.append(_tagged(filters["with_tag_ids"]))
    if "without_tag_ids" in filters:
        found.append(~_tagged(filters["without_tag_ids"]))
    if "with_document_type_ids" in filters:
        found.append(Document.document_type_id.in_(filters["with_document_type_ids"]))
    if "without_document_type_ids" in filters:
        found.append(or_(Document.document_type_id.is_(None),
                         Document.document_type_id.not_in(filters["without_document_type_ids"])))
    return found


def _tagged(tag_ids: list[int]):
    return Document.id.in_(select(document_simple_tag.c.document_id)
                           .where(document_simple_tag.c.tag_id.in_(tag_ids)))


def _date_conditions(filters: dict) -> list:
    column = getattr(Document, filters.get("date_field", "created_at"))
    found = []
    if "from_date" in filters:
        found.append(column >= datetime.combine(filters["from_date"], time()))
    if "to_date" in filters:
        found.append(column < datetime.combine(filters["to_date"] + timedelta(days=1), time()))
    return found


def _checked(found: dict) -> dict:
    if found.get("date_field", "created_at") not in DATE_FIELDS:
        raise validation_error({"date_field": [f"Must be one of {', '.join(DATE_FIELDS)}."]})
    if found.get("ordering", "id").lstrip("-") not in ORDERINGS:
        raise validation_error({"ordering": [f"Must be one of {', '.join(ORDERINGS)}."]})
    unknown = set(found.get("search_fields", [])) - set(SEARCH_FIELDS)
    if unknown:
        raise validation_error({"search_fields": [f"Unknown field: {sorted(unknown)[0]}."]})
    return found


def _ids(name: str, values: list) -> list[int]:
    try:
        ids = [int(v) for v in values if not isinstance(v, bool | float)]
    except (TypeError, ValueError):
        ids = []
    if len(ids) != len(values) or any(i < 1 or i > 2**63 - 1 for i in ids):
        raise validation_error({name: ["A list of valid integers is required."]})
    return ids


def _date(name: str, raw: str) -> date:
    try:
        if len(raw) == 10:
            return date.fromisoformat(raw)
    except ValueError:
        pass
    raise invalid_date(name)
