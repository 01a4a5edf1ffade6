"""Expenses: listings and detail (/1/, /2/expenses/), create and update."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The expenses blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.expenses import routes

    bp = blueprint("expenses", __name__, (
        ("GET", "/2/expenses/", routes.list_v2),
        ("GET", "/2/expenses/<int:expense_id>/", routes.detail_v2),
        ("POST", "/2/expenses/create/", routes.create),
        ("PATCH", "/2/expenses/<int:expense_id>/update/", routes.update),
        ("GET", "/1/expenses/", routes.list_v1),
        ("GET", "/1/expenses/<int:expense_id>/", routes.detail_v1),
    ))
    return bp
