"""Company: the company settings of the token's company (/2/company-info/)."""
from __future__ import annotations

from flask import Blueprint

from sandbox.core.routing import blueprint


def make_blueprint() -> Blueprint:
    """The company blueprint and its route table: (methods, rule, view) per operation."""
    # Views import other resources' models and rules, so they load when the app is built.
    from sandbox.company import routes

    bp = blueprint("company", __name__, (
        ("GET", "/2/company-info/", routes.company_info),
        ("PATCH", "/2/company-info/update/<int:company_id>/", routes.company_update),
    ))
    return bp
