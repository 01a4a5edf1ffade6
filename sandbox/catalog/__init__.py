"""Catalog: tags, expense and revenue types, currencies and VAT categories."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The catalog blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.catalog import routes

    bp = blueprint("catalog", __name__, (
        ("GET", "/2/tags/", routes.list_tags),
        ("POST", "/2/tags/create/", routes.create_tags),
        ("PATCH", "/2/tags/update/", routes.update_tags),
        ("POST", "/2/tags/delete/", routes.delete_tags),
        ("GET", "/2/<any('expense-types', 'revenue-types'):kind>/", routes.list_types),
        ("POST", "/2/<any('expense-types', 'revenue-types'):kind>/create/", routes.create_types),
        ("POST", "/2/<any('expense-types', 'revenue-types'):kind>/update/", routes.update_types),
        ("POST", "/2/<any('expense-types', 'revenue-types'):kind>/delete/", routes.delete_types),
        ("GET", "/2/currencies/", routes.currency_list),
        ("GET", "/2/accounting/vat-categories/", routes.list_vat_categories),
        ("POST", "/2/accounting/vat-categories/create/", routes.create_vat_categories),
        ("POST PATCH", "/2/accounting/vat-categories/update/<int:vat_category_id>/",
         routes.update_vat_category),
    ))
    return bp
