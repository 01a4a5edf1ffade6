"""Taxes and salaries (spec 2.9, 2.10, 4.5): one blueprint per kind, the same pages each.

    GET       /c/<id>/taxes/          months by payment month, totals, records with detail
    GET/POST  /c/<id>/taxes/new       the create grid (several records, sent once)
    GET/POST  /c/<id>/taxes/edit      the selected records (?ids=...), synced ones tags only
    GET/POST  /c/<id>/taxes/delete    confirm, then delete the selected records
and the same under /c/<id>/salaries/. Only /2/ endpoints are used.
"""
from __future__ import annotations

from functools import partial, update_wrapper

from flask import Blueprint

from app.auth import company_blueprint
from app.taxes.kinds import SALARIES, TAXES, Kind


def make_blueprint(kind: Kind) -> Blueprint:
    """The blueprint of one kind, mounted at /c/<id>/<kind>/."""
    from app.taxes import views_delete, views_edit, views_list, views_new

    bp = company_blueprint(kind.name, __name__, url_prefix=f"/{kind.name}")
    bp.add_url_rule("/", "index", _bound(views_list.index, kind), methods=["GET"])
    bp.add_url_rule("/new", "new", _bound(views_new.new, kind), methods=["GET", "POST"])
    bp.add_url_rule("/edit", "edit", _bound(views_edit.edit, kind), methods=["GET", "POST"])
    bp.add_url_rule("/delete", "delete", _bound(views_delete.delete, kind),
                    methods=["GET", "POST"])
    bp.context_processor(partial(_context, kind))
    return bp


def _bound(view, kind: Kind):
    # A named view (CSRF exemption lookups and logs read __module__ and __name__).
    return update_wrapper(partial(view, kind), view)


def _context(kind: Kind) -> dict:
    from app.taxes import labels

    return {"kind": kind, "column": partial(labels.column, kind_name=kind.name),
            "paid_label": labels.paid_label, "paid_badge": labels.PAID_BADGE.get,
            "count_label": partial(labels.count_label, kind.name),
            "month_label": labels.month_label}


blueprints = (make_blueprint(TAXES), make_blueprint(SALARIES))
