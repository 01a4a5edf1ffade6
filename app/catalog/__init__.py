"""Catalogues: tags, expense and revenue types, VAT categories, currencies and documents.

One blueprint per page group (tags, expense_types, revenue_types, vat_categories, currencies,
documents), each under /c/<company_id>/<slug>/ listed in the catalogue menu of app/nav.py.
Every write drops the catalogue it touched from app.upstream.catalog.
"""
from __future__ import annotations

from app.catalog import currencies, documents, named, named_views, vat_views

blueprints = (*(named_views.make_blueprint(kind) for kind in named.KINDS), vat_views.bp,
              currencies.bp, documents.bp)
