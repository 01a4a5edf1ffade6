"""The OpenAPI 3.1 description of the sandbox (/2/schema/)."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The schema blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.schema import routes

    bp = blueprint("schema", __name__, (
        ("GET", "/2/schema/", routes.schema),
    ))
    return bp
