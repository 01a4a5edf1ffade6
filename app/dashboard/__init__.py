"""The company dashboard at /c/<company_id>/: count cards linking to their lists, and the
latest incomes; the practice page at /practice: one row per signed-in company.

Modules: views (the dashboard and practice pages), service (their reads), present (figures
in HUF, the VAT due, the chart's bars).

The practice page lives here, not in app/auth: its figures are the dashboard's own queries
(each row is a company's dashboard in brief and links into it), while app/auth is about who is
signed in. It sits outside the company scope, on a blueprint of its own.
"""
from __future__ import annotations

from flask import Blueprint

from app.auth import company_blueprint
from app.dashboard import views

bp = company_blueprint("dashboard", __name__, routes=(("/", "index", views.index, ["GET"]),))

practice_bp = Blueprint("practice", __name__)
practice_bp.add_url_rule("/practice", "index", views.practice, methods=["GET"])

blueprints = (bp, practice_bp)
