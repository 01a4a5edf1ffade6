"""Audit exports (live only): POST /2/audit-xml/ imports an invoicing program's export."""
from __future__ import annotations

from flask import Blueprint

from . import routes

bp = Blueprint("audit", __name__)

ROUTES = (("POST", "/2/audit-xml/", routes.upload),)
for _method, _rule, _view in ROUTES:
    bp.add_url_rule(_rule, view_func=_view, methods=[_method])

BLUEPRINTS = (bp,)
