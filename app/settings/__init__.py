"""Company settings (spec 2.1, 4.1): the company's data and the switches that change the income
forms (URL /c/<company_id>/settings/, DESIGN.md). The income policy editor lives elsewhere."""
from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.nav import register_area

bp = company_blueprint("settings", __name__, url_prefix="/settings")


def init_app(app: Flask) -> None:
    """Register the settings page and its navigation entry."""
    from app.settings import views  # noqa: F401

    register_area(app, bp, _l("Settings"), "settings.index", order=80)
