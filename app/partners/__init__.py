"""Partners (customers and vendors): searchable list, create, edit (URLs under
/c/<company_id>/partners/, DESIGN.md)."""
from __future__ import annotations

from app.auth import company_blueprint
from app.partners import views

bp = company_blueprint("partners", __name__, url_prefix="/partners")
bp.add_url_rule("/", "index", views.index, methods=["GET"])
bp.add_url_rule("/new", "new", views.new, methods=["GET", "POST"])
bp.add_url_rule("/<int:partner_id>/", "edit", views.edit, methods=["GET", "POST"])
