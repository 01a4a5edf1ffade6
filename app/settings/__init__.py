"""Company settings (spec 2.1, 4.1): the company's data and the switches that change the income
forms (URL /c/<company_id>/settings/, docs/architecture.md). The income policy editor lives
elsewhere.

Modules: views (the settings page and its writes), forms (the income-form switches).
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.settings import views

ROUTES = (("/", "index", views.index, ["GET", "POST"]),)
bp = company_blueprint("settings", __name__, url_prefix="/settings", routes=ROUTES)
