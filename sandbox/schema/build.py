"""Assemble the OpenAPI 3.1 document from the operations table and component schemas.

Collecting (spec part 9): each resource's `schema.py` holds OPERATIONS (its Op rows) and may
hold SCHEMAS (components only it uses); the components shared by several resources live in
sandbox/schema/components_*.py. Adding an operation is one row in its resource's schema.py (and
its route in __init__.py).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from sandbox.schema import (
    components_bank,
    components_catalog,
    components_common,
    components_company,
    components_expense,
    components_income,
    components_partner,
)

from . import texts
from .model import Op, T

COMPANY_PARAM = {"$ref": "#/components/parameters/ServiceCompanyId"}
ERROR_SCHEMAS = {400: "ValidationError", 401: "Detail", 403: "Detail", 404: "Detail"}


def document(operations: tuple[Op, ...], schemas: dict, lang: str) -> dict:
    """The whole document in one language (hu unless lang is en)."""
    by_id = {op.op_id: op for op in operations}
    doc = {
        "openapi": "3.1.0",
        "info": {"title": texts.TITLE, "version": "2", "description": texts.DESCRIPTION},
        "tags": [{"name": name, "description": text} for name, text in texts.TAGS],
        "security": [{"TokenAuth": []}],
        "paths": _paths(operations, by_id),
        "components": _components(schemas),
    }
    return localize(doc, "en" if lang == "en" else "hu")


def localize(value: Any, lang: str) -> Any:
    """Replace every bilingual text in value by its lang version."""
    if isinstance(value, T):
        return getattr(value, lang)
    if isinstance(value, dict):
        return {key: localize(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [localize(item, lang) for item in value]
    return value


def _paths(operations: tuple[Op, ...], by_id: dict[str, Op]) -> dict:
    paths: dict[str, dict] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, by_id)
    return paths


def _operation(op: Op, by_id: dict[str, Op]) -> dict:
    entry: dict[str, Any] = {"operationId": op.op_id, "tags": [op.tag], "summary": op.summary}
    if op.description is not None:
        entry["description"] = op.description
    entry["parameters"] = [COMPANY_PARAM, *op.params]
    if op.body is not None:
        entry["requestBody"] = {"required": True,
                                "content": {op.body_type: {"schema": _schema(op.body)}}}
    entry["responses"] = _responses(op)
    if op.successor:
        entry.update(_deprecation(op, by_id[op.successor]))
    if op.path.startswith("/2/"):
        entry["security"] = [{"TokenAuth": []}, {"OAuth2": []}]
    entry.update(op.extra)
    return entry


def _schema(value: str | dict) -> dict:
    return {"$ref": f"#/components/schemas/{value}"} if isinstance(value, str) else value


def _responses(op: Op) -> dict:
    if op.status == 204:
        responses: dict[str, Any] = {"204": {"description": texts.NO_CONTENT}}
    else:
        responses = {str(op.status): {"description": texts.SUCCESS, "content": {
            "application/json": {"schema": _schema(op.response or {})}}}}
    errors = set(op.errors) | ({404} if "{" in op.path or _paged(op) else set())
    for status in sorted(errors):
        responses[str(status)] = {"$ref": f"#/components/responses/Error{status}"}
    return responses


def _paged(op: Op) -> bool:
    """A page that is not one is 404 "Invalid page.", a cursor that is not one "Invalid
    cursor" (sandbox/core/pagination.py)."""
    return any(param.get("name") in ("page", "cursor") for param in op.params)


def _deprecation(op: Op, successor: Op) -> dict:
    names = {"method": successor.method.upper(), "path": successor.path,
             "op_id": successor.op_id}
    note = T(texts.DEPRECATED.hu.format(**names), texts.DEPRECATED.en.format(**names))
    text = note if op.description is None else T(f"{note.hu} {op.description.hu}",
                                                 f"{note.en} {op.description.en}")
    return {"deprecated": True, "description": text,
            "x-successor": {"operationId": successor.op_id, "method": names["method"],
                            "path": successor.path}}


def _components(schemas: dict) -> dict:
    return {
        "securitySchemes": {"TokenAuth": {"type": "apiKey", "in": "header",
                                          "name": "Authorization",
                                          "description": texts.TOKEN_AUTH},
                            "OAuth2": texts.OAUTH2},
        "parameters": {"ServiceCompanyId": {
            "name": "Service-Company-Id", "in": "header", "required": False,
            "description": texts.COMPANY_HEADER, "schema": {"type": "integer"}}},
        "responses": {f"Error{status}": {
            "description": texts.ERRORS[status],
            "content": {"application/json": {"schema": _schema(name)}}}
            for status, name in ERROR_SCHEMAS.items()},
        "schemas": schemas,
    }


SHARED_COMPONENTS = (components_bank, components_catalog, components_common, components_company,
                     components_expense, components_income, components_partner)


def _resource_schemas() -> tuple:
    # Imported on use: a resource's schema module imports the shared components above.
    from sandbox.bank import schema as bank
    from sandbox.catalog import schema as catalog
    from sandbox.company import schema as company
    from sandbox.documents import schema as documents
    from sandbox.expenses import schema as expenses
    from sandbox.incomes import schema as incomes
    from sandbox.ledger import schema as ledger
    from sandbox.oauth import schema as oauth
    from sandbox.partners import schema as partners
    from sandbox.taxes import schema as taxes

    return (bank, ledger, catalog, company, documents, expenses, incomes, partners, taxes, oauth)


def operations() -> tuple[Op, ...]:
    """Every operation of every resource's schema module."""
    return tuple(op for module in _resource_schemas() for op in module.OPERATIONS)


def schemas() -> dict:
    """Every component schema, shared and per resource, by name."""
    merged: dict = {}
    for module in (*SHARED_COMPONENTS, *_resource_schemas()):
        merged.update(getattr(module, "SCHEMAS", {}))
    return dict(sorted(merged.items()))


@lru_cache(maxsize=4)


def build_schema(lang: str = "hu") -> dict:
    """The OpenAPI document in Hungarian (default) or English (lang="en")."""
    return document(operations(), schemas(), lang)
