"""Collect every operation and component schema into the OpenAPI 3.1 document (spec part 9)."""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from sandbox import schema
from sandbox.schema.build import document
from sandbox.schema.model import Op


def _collect(prefix: str, name: str) -> list:
    modules = sorted(m.name for m in pkgutil.iter_modules(schema.__path__)
                     if m.name.startswith(prefix))
    return [getattr(importlib.import_module(f"sandbox.schema.{m}"), name) for m in modules]


def operations() -> tuple[Op, ...]:
    """Every operation of every ops_<area> table."""
    return tuple(op for table in _collect("ops_", "OPERATIONS") for op in table)


def schemas() -> dict:
    """Every component schema of every components_<area> module, by name."""
    merged: dict = {}
    for table in _collect("components_", "SCHEMAS"):
        merged.update(table)
    return dict(sorted(merged.items()))


@lru_cache(maxsize=4)
def build_schema(lang: str = "hu") -> dict:
    """The OpenAPI document in Hungarian (default) or English (lang="en")."""
    return document(operations(), schemas(), lang)
