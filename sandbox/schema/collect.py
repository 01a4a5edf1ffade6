"""Collect every operation and component schema into the OpenAPI 3.1 document (spec part 9).

Each resource's `schema.py` holds OPERATIONS (its Op rows) and may hold SCHEMAS (components only
it uses); the components shared by several resources live in sandbox/schema/components_*.py.
Adding an operation is one row in its resource's schema.py (and its route in __init__.py).
"""
from __future__ import annotations

from functools import lru_cache

from sandbox.schema import (
    components_bank,
    components_catalog,
    components_common,
    components_company,
    components_expense,
    components_income,
    components_partner,
)
from sandbox.schema.build import document
from sandbox.schema.model import Op

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
