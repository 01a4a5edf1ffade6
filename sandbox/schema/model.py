"""Building blocks of the operations table: bilingual text, parameters, operations."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


class T(NamedTuple):
    """A text in Hungarian and English; the builder picks one per document."""

    hu: str
    en: str


@dataclass(frozen=True)
class Op:
    """One operation: where it is served, what it is called and what it takes and gives."""

    method: str
    path: str
    op_id: str
    tag: str
    summary: T
    description: T | None = None
    params: tuple = ()
    body: str | dict | None = None
    body_type: str = "application/json"
    response: str | dict | None = None
    status: int = 200
    errors: tuple[int, ...] = (400, 401, 403)
    successor: str | None = None
    extra: dict = field(default_factory=dict)


def ref(name: str) -> dict:
    """A $ref to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    """schema, also accepting null (OpenAPI 3.1 style)."""
    kind = schema.get("type")
    if kind is None:
        return {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "type": [kind, "null"] if isinstance(kind, str) else [*kind, "null"]}


def prop(kind: str | dict, text: T | None = None, **extra: Any) -> dict:
    """A property schema of a type name (or a schema) with an optional description."""
    schema = dict(kind) if isinstance(kind, dict) else {"type": kind}
    if text is not None:
        schema["description"] = text
    schema.update(extra)
    return schema


def obj(properties: dict, required: tuple[str, ...] = (), text: T | None = None) -> dict:
    """An object schema; extra keys stay allowed because the upstream adds fields freely."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if text is not None:
        schema["description"] = text
    return schema


def array(items: dict, text: T | None = None) -> dict:
    """An array schema."""
    return prop({"type": "array", "items": items}, text)


def _param(where: str, name: str, schema: dict | str, text: T, required: bool) -> dict:
    body = schema if isinstance(schema, dict) else {"type": schema}
    return {"name": name, "in": where, "required": required, "description": text,
            "schema": body}


def query(name: str, schema: dict | str, text: T) -> dict:
    """An optional query parameter."""
    return _param("query", name, schema, text, False)


def path_param(name: str, text: T) -> dict:
    """A required integer path parameter."""
    return _param("path", name, {"type": "integer"}, text, True)


def boolean_query(name: str, text: T) -> dict:
    """A true/false query filter."""
    return query(name, {"type": "string", "enum": ["true", "false"]}, text)


def date_query(name: str, text: T) -> dict:
    """An ISO 8601 date query filter."""
    return query(name, {"type": "string", "format": "date"}, text)
