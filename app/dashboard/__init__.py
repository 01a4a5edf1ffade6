"""The company dashboard at /c/<company_id>/: count cards linking to their lists, and the
latest incomes."""
from __future__ import annotations

from app.auth import company_blueprint
from app.dashboard import views

bp = company_blueprint("dashboard", __name__)
bp.add_url_rule("/", "index", views.index, methods=["GET"])
