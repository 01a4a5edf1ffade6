"""Bank accounts, payments and balances (live-only, read-only): GET /1/accounts, /1/payments,
/1/pulse; /_sandbox/bank/ controls pay expenses so transactions and paid statuses agree."""
from __future__ import annotations

from flask import Blueprint

from . import routes
from .controls import controls_bp

bp = Blueprint("bank", __name__)

ROUTES = (
    ("GET", "/1/accounts/", routes.list_accounts),
    ("GET", "/1/payments/", routes.list_payments),
    ("GET", "/1/pulse/", routes.pulse),
)
for _method, _rule, _view in ROUTES:
    bp.add_url_rule(_rule, view_func=_view, methods=[_method])

BLUEPRINTS = (bp, controls_bp)
