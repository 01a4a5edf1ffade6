"""Incomes: listing and detail (/1/incomes/), create and update (/2/incomes/)."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The incomes blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.incomes import routes

    bp = blueprint("incomes", __name__, (
        ("GET", "/1/incomes/", routes.income_list),
        ("GET", "/1/incomes/<int:income_id>/", routes.income_detail),
        ("POST", "/2/incomes/create/", routes.income_create),
        ("PATCH", "/2/incomes/<int:income_id>/update/", routes.income_update),
    ))
    return bp
