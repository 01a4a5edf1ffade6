"""Partners (customers and vendors): searchable list, create, edit (URLs under
/c/<company_id>/partners/, DESIGN.md)."""
from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.nav import register_area

bp = company_blueprint("partners", __name__, url_prefix="/partners")


def init_app(app: Flask) -> None:
    """Register the partner pages and their navigation entry."""
    from app.partners import views  # noqa: F401

    register_area(app, bp, _l("Partners"), "partners.index", order=50)
