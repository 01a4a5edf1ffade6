"""Taxes and salaries: monthly listings, bulk writes, tax codes and the deprecated /1/ paths."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The taxes blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.taxes import routes

    bp = blueprint("taxes", __name__, (
        ("GET", "/2/<any('monthly-taxes', 'monthly-salaries'):listing>/", routes.list_monthly),
        ("POST", "/2/<any('taxes', 'salaries'):records>/create/", routes.create),
        ("POST", "/2/<any('taxes', 'salaries'):records>/update/", routes.update),
        ("POST", "/2/<any('taxes', 'salaries'):records>/delete/", routes.delete),
        ("GET", "/1/tax-codes/", routes.tax_codes),
        ("GET", "/1/<any('taxes', 'salaries'):records>/", routes.list_v1),
        ("POST", "/1/<any('taxes', 'salaries'):records>/create/", routes.create_v1),
        ("POST", "/1/<any('taxes', 'salaries'):records>/update/", routes.update_v1),
        ("POST", "/1/<any('taxes', 'salaries'):records>/delete/", routes.delete_v1),
    ))
    bp.after_request(routes.mark_deprecated)
    return bp
