"""Audit exports (live only): POST /2/audit-xml/ imports an invoicing program's export."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The audit blueprint and its route table: (methods, rule, view) per operation."""
    from sandbox.audit import routes

    return blueprint("audit", __name__, (("POST", "/2/audit-xml/", routes.upload),))
