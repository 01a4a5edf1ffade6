"""The live API's response shapes (live-api-shapes.json beside this file) and a checker.

A shape maps key paths to JSON types: `results[].gross_amount: string`. `key_types(body)`
flattens a real response the same way; `shape_problems` lists every live key the response lacks
and every value whose type differs. Null values say nothing about the type, so the fidelity tests
choose data where each checked key holds a value.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SHAPES_FILE = Path(__file__).with_name("live-api-shapes.json")
JSON_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
              "array": (list,), "object": (dict,)}


def live_operation(method: str, path: str) -> dict:
    """The live description of one operation, e.g. live_operation("GET", "/1/incomes")."""
    operations = json.loads(SHAPES_FILE.read_text(encoding="utf-8"))["operations"]
    found = [op for op in operations if op["method"] == method and op["path"] == path]
    assert found, f"{method} {path} is not a live operation"
    return found[0]


def live_response(method: str, path: str, rename: dict[str, str] | None = None,
                  overrides: dict[str, str] | None = None) -> dict[str, str]:
    """Key path -> live type of an operation's response.

    rename maps a live key prefix to the sandbox's (the nested envelope: {"results[]":
    "results.incomes[]"}); overrides names the keys where the written spec wins over the live
    type (e.g. percent is a float by spec 9.5)."""
    shape = dict(live_operation(method, path)["response"])
    for old, new in (rename or {}).items():
        shape = {(new + key[len(old):] if key.startswith(old) else key): kind
                 for key, kind in shape.items()}
    shape.update(overrides or {})
    return shape


def key_types(body: Any, prefix: str = "") -> dict[str, set[type]]:
    """Every key path of a JSON value with the Python types seen there (None for null)."""
    found: dict[str, set[type]] = {}
    if isinstance(body, dict):
        for key, value in body.items():
            path = f"{prefix}.{key}" if prefix else key
            _merge(found, {path: {type(value)}})
            _merge(found, key_types(value, path))
    elif isinstance(body, list):
        for item in body:
            path = f"{prefix}[]"
            _merge(found, {path: {type(item)}} if prefix else {})
            _merge(found, key_types(item, path if prefix else ""))
    return found


def _merge(into: dict, more: dict) -> None:
    for key, kinds in more.items():
        into.setdefault(key, set()).update(kinds)


def shape_problems(body: Any, shape: dict[str, str]) -> list[str]:
    """Live keys missing from body, keys only ever null, and values of another type."""
    seen = key_types(body)
    problems = []
    for key, kind in sorted(shape.items()):
        kinds = seen.get(key)
        if kinds is None:
            problems.append(f"{key}: missing")
            continue
        values = {k for k in kinds if k is not type(None)}
        if not values:
            problems.append(f"{key}: only null, type unchecked")
        wrong = {k for k in values if not _fits(k, kind)}
        if wrong:
            problems.append(f"{key}: {sorted(k.__name__ for k in wrong)} is not {kind}")
    return problems


def _fits(value_type: type, kind: str) -> bool:
    if value_type is bool:
        return kind == "boolean"
    return issubclass(value_type, JSON_TYPES[kind])
