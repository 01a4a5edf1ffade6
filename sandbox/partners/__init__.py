"""Partners: customers and vendors (/1/partners/, /2/partners/)."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The partners blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.partners import routes

    bp = blueprint("partners", __name__, (
        ("POST", "/2/partners/create/", routes.partner_create),
        ("PATCH", "/2/partners/<int:partner_id>/update/", routes.partner_update),
        ("GET", "/1/partners/<int:partner_id>/", routes.partner_detail),
        ("GET", "/1/partners/", routes.partner_list),
    ))
    return bp
