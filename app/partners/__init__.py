"""Partners (customers and vendors): searchable list, create, edit, the partner card and its
statement (URLs under /c/<company_id>/partners/, docs/architecture.md).

Modules: views (request -> response), forms (the partner form and its bodies), flow (the list's
query, collisions, limits), present (the partner card, ageing, the statement).
"""
from __future__ import annotations

from flask import request, url_for

from app.auth import company_blueprint
from app.partners import views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/new", "new", views.new, ["GET", "POST"]),
    ("/<int:partner_id>/", "edit", views.edit, ["GET", "POST"]),
    ("/<int:partner_id>/card", "card", views.card, ["GET"]),
    ("/<int:partner_id>/statement", "statement", views.statement, ["GET"]),
)
bp = company_blueprint("partners", __name__, url_prefix="/partners", routes=ROUTES)


@bp.context_processor
def _export() -> dict:
    return {"partner_export_url": _export_url}


def _export_url() -> str:
    """The list's export link: the current search, role and ordering (not the page)."""
    keep = {key: request.args.get(key) or None for key in ("q", "role", "ordering")}
    return url_for("partners.export", **keep)
