"""The live API's documented operations (data/live-api-shapes.json, a copy of the shared
description) and a check that a sandbox response carries every documented key with its type."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SHAPES_FILE = Path(__file__).parent / "data" / "live-api-shapes.json"
JSON_TYPES = {"integer": (int,), "number": (int, float), "string": (str,), "boolean": (bool,),
              "array": (list,), "object": (dict,)}


@cache
def operations() -> tuple[dict, ...]:
    """Every documented live operation."""
    return tuple(json.loads(SHAPES_FILE.read_text(encoding="utf-8"))["operations"])


def operation(method: str, path: str) -> dict:
    """The documented operation for method and path (path as written there, no slash at end)."""
    for op in operations():
        if op["method"] == method and op["path"] == path:
            return op
    raise KeyError(f"{method} {path} is not a documented live operation")


def flatten(value, prefix: str = "") -> dict[str, set[str]]:
    """Key paths in the live notation (results[].id, [].transactions[]) with the types seen."""
    found: dict[str, set[str]] = {}
    if prefix:
        found.setdefault(prefix, set()).add(json_type(value))
    if isinstance(value, dict):
        for key, item in value.items():
            _merge(found, flatten(item, f"{prefix}.{key}" if prefix else key))
    elif isinstance(value, list):
        for item in value:
            _merge(found, flatten(item, f"{prefix}[]"))
    return found


def json_type(value) -> str:
    """The JSON type name of a decoded value (null for None)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    for name in ("integer", "number", "string", "array", "object"):
        if isinstance(value, JSON_TYPES[name]):
            return name
    raise TypeError(type(value))


def shape_problems(method: str, path: str, body) -> list[str]:
    """Documented response keys the body lacks or carries with another type (null is allowed)."""
    seen = flatten(body)
    problems = []
    for key, wanted in operation(method, path)["response"].items():
        types = seen.get(key)
        if types is None:
            problems.append(f"missing {key}")
        elif types - {wanted, "null"} and not (wanted == "number" and types <= {"integer"}):
            problems.append(f"{key}: {sorted(types)} instead of {wanted}")
    return problems


def _merge(into: dict[str, set[str]], other: dict[str, set[str]]) -> None:
    for key, types in other.items():
        into.setdefault(key, set()).update(types)
