"""Ledger: the company's ledger numbers (/2/accounting/ledger-numbers/)."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The ledger blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.ledger import routes

    bp = blueprint("ledger", __name__, (
        ("GET", "/2/accounting/ledger-numbers/", routes.list_ledger_numbers),
        ("POST", "/2/accounting/ledger-numbers/create/", routes.create_ledger_numbers),
        ("POST PATCH", "/2/accounting/ledger-numbers/update/<int:ledger_number_id>/",
         routes.update_ledger_number),
        ("POST", "/2/accounting/ledger-numbers/delete/", routes.delete_ledger_numbers),
    ))
    return bp
