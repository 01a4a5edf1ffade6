"""Bank (live only, read-only): accounts, payments per account and day, balances."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The bank blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.bank import routes

    return blueprint("bank", __name__, (
        ("GET", "/1/accounts/", routes.list_accounts),
        ("GET", "/1/payments/", routes.list_payments),
        ("GET", "/1/pulse/", routes.pulse),
    ))
