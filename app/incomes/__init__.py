"""Incomes: list with filters and CSV export, detail, edit from editable_fields, new accounting
documents and stornos, cancelling (URLs under /c/<company_id>/incomes/, docs/architecture.md).

Modules: views (request -> response), forms (list filters and API parameters), flow (the reads
side by side, stornos, cancelling, new accounting documents), present (states, detail groups,
list rows, CSV columns).
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.incomes import present, views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/partners", "partner_options", views.partner_options, ["GET"]),
    ("/<int:income_id>", "detail", views.detail, ["GET"]),
    ("/<int:income_id>/file", "artifact", views.artifact, ["GET"]),
    ("/<int:income_id>/viewer", "viewer", views.viewer, ["GET"]),
    ("/<int:income_id>/cancel", "cancel", views.cancel, ["GET", "POST"]),
    ("/<int:income_id>/edit", "edit", views.edit, ["GET", "POST"]),
    ("/totals", "totals", views.totals, ["POST"]),
    ("/new", "new", views.new, ["GET", "POST"]),
)
bp = company_blueprint("incomes", __name__, url_prefix="/incomes", routes=ROUTES)


@bp.context_processor
def _labels() -> dict:
    return {"accounting_label": present.ACCOUNTING_STATUS.get,
            "cancel_label": present.cancel_label}
