"""What the catalogue pages do: the named catalogues (tags, expense types, revenue types) and
the company's VAT categories, read from the cache and written through app/upstream/catalog.py.

Each write drops the cached catalogue, so every form elsewhere sees the change on its next
page. Named catalogues answer a bulk rename or delete in different shapes (spec 4.6, 4.7); both
are read into RenameResult and DeleteResult here. VAT categories (spec 2.8, 4.8) have no
single-category read, so one is found in the (cached) list.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from app.upstream import ValidationError, catalog
from app.upstream.errors import upstream_text


@dataclass(frozen=True)
class Kind:
    """One named catalogue: its cache name, URL slug, title and how it renames."""

    name: str
    slug: str
    title: Any
    rename_method: str = "POST"
    filters: bool = False
    # Why a delete kept an id when the API does not say: tags are kept only when in use
    # (spec 4.7); types list unknown and foreign ids (spec 4.6).
    kept_reason: str = "not_found"


TAGS = Kind("tags", "tags", _l("Tags"), "PATCH", filters=True, kept_reason="in_use")
EXPENSE_TYPES = Kind("expense_types", "expense-types", _l("Expense types"))
REVENUE_TYPES = Kind("revenue_types", "revenue-types", _l("Revenue types"))
KINDS = (TAGS, EXPENSE_TYPES, REVENUE_TYPES)


@dataclass
class RenameResult:
    """Ids renamed, and the refused ones with the API's messages."""

    renamed: list[int] = field(default_factory=list)
    failed: dict[int, list[str]] = field(default_factory=dict)


@dataclass
class DeleteResult:
    """Ids deleted; ids kept with a reason (in_use, not_found) and where they are used."""

    deleted: list[int] = field(default_factory=list)
    kept: dict[int, str] = field(default_factory=dict)
    where: dict[int, list[str]] = field(default_factory=dict)


def items(api, kind: Kind, name: str = "", external: str = "") -> list[dict]:
    """The catalogue in the API's order: cached when unfiltered, else filtered by the API."""
    if not name and not external:
        return catalog.get(api, kind.name)
    return catalog.search(api, kind.name, {"name": name or None,
                                           "is_external": external or None})


def create(api, kind: Kind, name: str) -> dict:
    """Create one entry; the created record (a refusal names the name field)."""
    return catalog.create(api, kind.name, {"name": name})


def find_created(api, kind: Kind, name: str) -> dict | None:
    """The entry named name (the API refuses a second one, in any case), from a fresh list."""
    catalog.invalidate(api.company_id, kind.name)
    wanted = name.strip().casefold()
    return next((item for item in catalog.get(api, kind.name)
                 if (item.get("name") or "").strip().casefold() == wanted), None)


def rename(api, kind: Kind, names: dict[int, str]) -> RenameResult:
    """Rename several entries in one request; partial success where the API allows it."""
    sent = [{"id": key, "name": value} for key, value in names.items()]
    try:
        body = catalog.update_many(api, kind.name, sent, kind.rename_method)
    except ValidationError as exc:
        failed = _item_errors(exc, sent)
        if not failed:
            raise
        return RenameResult(failed=failed)
    return _renamed(body, sent)


def _item_errors(exc: ValidationError, sent: list[dict]) -> dict[int, list[str]]:
    """Per-item messages of an all-or-nothing list refusal: [{}, {"name": [...]}]."""
    if not isinstance(exc.body, list):
        return {}
    failed = {}
    for item, problem in zip(sent, exc.body, strict=False):
        if isinstance(problem, dict) and problem:
            failed[item["id"]] = _messages(problem)
    return failed


def _renamed(body: Any, sent: list[dict]) -> RenameResult:
    if isinstance(body, list):
        return RenameResult(renamed=[item.get("id") for item in body if isinstance(item, dict)])
    body = body if isinstance(body, dict) else {}
    failed_ids = [int(i) for i in body.get("failed_ids") or []]
    errors = body.get("errors") or {}
    updated = [_id(item) for item in body.get("updated") or []]
    if "updated" not in body:
        updated = [item["id"] for item in sent if item["id"] not in failed_ids]
    failed = {i: _messages(errors.get(str(i))) for i in failed_ids}
    return RenameResult(renamed=updated, failed=failed)


def delete(api, kind: Kind, ids: list[int]) -> DeleteResult:
    """Delete several entries; what went, what stayed and why."""
    body = catalog.delete_many(api, kind.name, ids)
    if not isinstance(body, dict):
        return DeleteResult(deleted=list(ids))
    deleted = [int(i) for i in body.get("deleted") or []]
    kept = body.get("not_deleted", body.get("failed_ids"))
    kept = [int(i) for i in kept] if kept is not None else [i for i in ids if i not in deleted]
    where = {int(k): list(v) for k, v in (body.get("references") or {}).items()}
    return DeleteResult(deleted, {i: _reason(kind, body, where, i) for i in kept}, where)


def _reason(kind: Kind, body: dict, where: dict, item_id: int) -> str:
    stated = (body.get("reasons") or {}).get(str(item_id))
    if item_id in where or stated == "in_use":
        return "in_use"
    if str(item_id) in {str(i) for i in body.get("not_found") or []} or stated == "not_found":
        return "not_found"
    return kind.kept_reason


def _id(item: Any) -> int:
    return int(item["id"]) if isinstance(item, dict) else int(item)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def _messages(problem: Any) -> list[str]:
    if isinstance(problem, dict):
        return [upstream_text(m) for msgs in problem.values() for m in _list(msgs)]
    return [upstream_text(m) for m in _list(problem)] if problem else []


def find_vat(api, category_id: int) -> dict | None:
    """One category from the (cached) list; the API has no single-category read."""
    found = _pick(catalog.get(api, "vat_categories"), category_id)
    if found is None:
        # Made elsewhere after the list was cached: look once more in a fresh list.
        catalog.invalidate(api.company_id, "vat_categories")
        found = _pick(catalog.get(api, "vat_categories"), category_id)
    return found


def _pick(items: list[dict], category_id: int) -> dict | None:
    return next((item for item in items if item.get("id") == category_id), None)


def create_vat(api, body: dict) -> dict:
    """Create one VAT category; the created category."""
    answer = catalog.create(api, "vat_categories", body)  # a list of one is read as its entry
    created = answer.get("created_vat_categories") if isinstance(answer, dict) else None
    return created[0] if isinstance(created, list) and created else (answer or {})


def find_created_vat(api, body: dict, known: frozenset[int] = frozenset()) -> dict | None:
    """A category matching a sent body that is none of the known twins (vat_twins)."""
    return next((item for item in _matching_vat(api, body) if item.get("id") not in known), None)


def vat_twins(api, body: dict) -> frozenset[int]:
    """The ids of stored categories a lost create of body could be taken for (the API allows
    twins), read in the send before its write."""
    return frozenset(item.get("id") for item in _matching_vat(api, body))


def _matching_vat(api, body: dict) -> list[dict]:
    """Fresh categories matching a sent body (name, rate, type; area and country when sent)."""
    catalog.invalidate(api.company_id, "vat_categories")
    wanted = {key: body.get(key) for key in ("vat_area", "country") if body.get(key)}
    return [item for item in catalog.get(api, "vat_categories")
            if item.get("name") == body["name"] and item.get("type") == body["type"]
            and float(item.get("percent") or 0) == body["percent"]
            and all(item.get(key) == value for key, value in wanted.items())]


def update_vat(api, category_id: int, body: dict) -> dict:
    """Update one VAT category; the stored category."""
    return catalog.update_one(api, "vat_categories", category_id, body)
