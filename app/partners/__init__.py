"""Partners (customers and vendors): searchable list, create, edit, the partner card and its
statement (URLs under /c/<company_id>/partners/, DESIGN.md)."""
from __future__ import annotations

from app.auth import company_blueprint
from app.labels import paid_badge, paid_label
from app.partners import views

bp = company_blueprint("partners", __name__, url_prefix="/partners")
bp.add_url_rule("/", "index", views.index, methods=["GET"])
bp.add_url_rule("/new", "new", views.new, methods=["GET", "POST"])
bp.add_url_rule("/<int:partner_id>/", "edit", views.edit, methods=["GET", "POST"])
bp.add_url_rule("/<int:partner_id>/card", "card", views.card, methods=["GET"])
bp.add_url_rule("/<int:partner_id>/statement", "statement", views.statement, methods=["GET"])


@bp.context_processor
def _labels() -> dict:
    return {"paid_label": paid_label, "paid_badge": paid_badge}
