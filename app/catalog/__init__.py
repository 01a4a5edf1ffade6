"""Catalogues: tags, expense and revenue types, VAT categories, currencies and documents.

Modules: views (request -> response), forms (the name, tag filter and VAT category forms,
refusal texts), service (the catalogues read from the cache and written upstream), present
(bulk delete reports, the document list).

One blueprint per page group (tags, expense_types, revenue_types, vat_categories, currencies,
documents), each under /c/<company_id>/<slug>/ listed in the catalogue menu of app/nav.py.
Every write drops the catalogue it touched from app.upstream.catalog.
"""
from __future__ import annotations

from flask import Blueprint

from app.auth import company_blueprint
from app.catalog import service, views

NAMED_ROUTES = (
    ("/", "index", views.named_index, ["GET"]),
    ("/new", "create", views.named_create, ["POST"]),
    ("/rename", "rename", views.named_rename, ["POST"]),
    ("/delete", "delete", views.named_delete, ["POST"]),
)


def make_blueprint(kind: service.Kind) -> Blueprint:
    """The blueprint of one named catalogue, mounted at /c/<id>/<slug>/."""
    bp = company_blueprint(kind.name, __name__, url_prefix=f"/{kind.slug}")
    for rule, endpoint, view, methods in NAMED_ROUTES:
        bp.add_url_rule(rule, endpoint, _bound(view, kind, endpoint), methods=methods)
    return bp


def _bound(view, kind: service.Kind, endpoint: str):
    """The view with its catalogue filled in (a real function: CSRF and logs read its name)."""
    def bound():
        return view(kind)

    bound.__name__ = f"{kind.name}_{endpoint}"
    bound.__doc__ = view.__doc__
    return bound


vat_bp = company_blueprint("vat_categories", __name__, url_prefix="/vat-categories")
vat_bp.add_url_rule("/", "index", views.vat_index, methods=["GET"])
vat_bp.add_url_rule("/new", "create", views.vat_create, methods=["POST"])
vat_bp.add_url_rule("/<int:vat_category_id>/edit", "edit", views.vat_edit,
                    methods=["GET", "POST"])

currencies_bp = company_blueprint("currencies", __name__, url_prefix="/currencies")
currencies_bp.add_url_rule("/", "index", views.currencies_index, methods=["GET"])

documents_bp = company_blueprint("documents", __name__, url_prefix="/documents")
documents_bp.add_url_rule("/", "index", views.documents_index, methods=["GET"])
documents_bp.add_url_rule("/<int:document_id>/file", "file", views.document_file,
                          methods=["GET"])

blueprints = (*(make_blueprint(kind) for kind in service.KINDS), vat_bp, currencies_bp,
              documents_bp)
