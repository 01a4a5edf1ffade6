"""Taxes and salaries (spec 2.9, 2.10, 4.5): one blueprint per kind, the same pages each.

Modules: views (request -> response), forms (list filters, grid rows), flow (the create and edit
grids, their rules and refusals), present (the record kinds and their words, the months).

    GET       /c/<id>/taxes/          months by payment month, totals, records with detail
    GET       /c/<id>/taxes/export    the filtered list as CSV or XLSX (?format=xlsx)
    GET/POST  /c/<id>/taxes/new       the create grid (several records, sent once)
    GET/POST  /c/<id>/taxes/edit      the selected records (?ids=...), synced ones tags only
    GET/POST  /c/<id>/taxes/delete    confirm, then delete the selected records
and the same under /c/<id>/salaries/. Only /2/ endpoints are used (app/upstream/taxes.py).
"""
from __future__ import annotations

from functools import partial, update_wrapper

from flask import Blueprint

from app.auth import company_blueprint
from app.taxes import present, views
from app.taxes.present import SALARIES, TAXES, Kind

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/new", "new", views.new, ["GET", "POST"]),
    ("/edit", "edit", views.edit, ["GET", "POST"]),
    ("/delete", "delete", views.delete, ["GET", "POST"]),
)


def make_blueprint(kind: Kind) -> Blueprint:
    """The blueprint of one kind, mounted at /c/<id>/<kind>/."""
    bp = company_blueprint(kind.name, __name__, url_prefix=f"/{kind.name}")
    for rule, endpoint, view, methods in ROUTES:
        bp.add_url_rule(rule, endpoint, _bound(view, kind), methods=methods)
    bp.context_processor(partial(_context, kind))
    return bp


def _bound(view, kind: Kind):
    # A named view (CSRF exemption lookups and logs read __module__ and __name__).
    return update_wrapper(partial(view, kind), view)


def _context(kind: Kind) -> dict:
    return {"kind": kind, "column": partial(present.column, kind_name=kind.name),
            "count_label": partial(present.count_label, kind.name),
            "month_label": present.month_label}


blueprints = (make_blueprint(TAXES), make_blueprint(SALARIES))
