"""Catalogues: tags, expense and revenue types, VAT categories, currencies and documents.

One blueprint per page group (tags, expense_types, revenue_types, vat_categories, currencies,
documents), each under /c/<company_id>/<slug>/ and listed in the navigation's catalogue menu.
Every write drops the catalogue it touched from app.upstream.catalog.
"""
from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext as _l

from app.nav import register_area

GROUP = _l("Catalogues")
ORDER = 70


def init_app(app: Flask) -> None:
    """Register every catalogue page and its entry in the catalogue menu."""
    from app.catalog import currencies, documents, named, named_views, vat_views

    pages = [(named_views.make_blueprint(kind), kind.title) for kind in named.KINDS]
    pages += [(vat_views.bp, _l("VAT categories")), (currencies.bp, _l("Currencies")),
              (documents.bp, _l("Documents"))]
    for offset, (blueprint, label) in enumerate(pages):
        register_area(app, blueprint, label, f"{blueprint.name}.index", order=ORDER + offset,
                      group=GROUP)
