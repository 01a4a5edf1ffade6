"""List envelopes in every shape the upstream uses, reduced to one Page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

LABEL_KEYS = ("name", "code", "iso_code", "label", "title")


@dataclass(frozen=True)
class Page:
    """One page of a list: records, total count (None for cursor lists), links, lookups."""

    items: list[Any]
    count: int | None = None
    next: str | None = None
    previous: str | None = None
    lookups: dict[str, dict[Any, str]] = field(default_factory=dict)


class MalformedPage(ValueError):
    """The body is not a list envelope the client knows."""


def resource_from_path(path: str) -> str:
    """Guess the records key from a path: ``/2/expense-types/`` -> ``expense_types``."""
    segments = [s for s in urlsplit(path).path.split("/") if s and not s.isdigit()]
    return segments[-1].replace("-", "_") if segments else ""


def parse_page(body: Any, resource: str) -> Page:
    """Read a bare list, a flat ``results`` list, ``results.<resource>`` or ``<resource>``."""
    if isinstance(body, list):
        return Page(items=body, count=len(body))
    if not isinstance(body, dict):
        raise MalformedPage(f"list body is {type(body).__name__}")
    results = body.get("results")
    if isinstance(results, list):
        items, tables = results, {}
    elif isinstance(results, dict):
        items, tables = _split(results, resource)
    elif resource in body:
        items, tables = _split(body, resource)
    else:
        raise MalformedPage(f"no results and no {resource!r} key in the list body")
    return Page(
        items=items,
        count=_count(body.get("count")),
        next=body.get("next") or None,
        previous=body.get("previous") or None,
        lookups={name: id_names(table) for name, table in tables.items()},
    )


def _split(container: dict[str, Any], resource: str) -> tuple[list[Any], dict[str, list]]:
    records = container.get(resource)
    if not isinstance(records, list):
        raise MalformedPage(f"{resource!r} is missing from the results object")
    tables = {
        key: value
        for key, value in container.items()
        if key != resource and isinstance(value, list) and all(_is_ref(v) for v in value)
    }
    return records, tables


def _is_ref(value: Any) -> bool:
    return isinstance(value, dict) and "id" in value


def _count(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def label(item: dict[str, Any]) -> str:
    """A catalogue entry's display name: name, else code, else its id."""
    for key in LABEL_KEYS:
        if item.get(key) not in (None, ""):
            return str(item[key])
    return str(item.get("id", ""))


def id_names(items: list[dict[str, Any]], key: str | None = None) -> dict[Any, str]:
    """Map ``{id: name}`` from a list of ``{id, name}`` entries (``key`` picks the field)."""
    return {
        item["id"]: (str(item.get(key, "")) if key else label(item))
        for item in items
        if isinstance(item, dict) and "id" in item
    }
