"""Expenses: list with every filter and CSV export, detail with the artifact, edit from
editable_fields, exclusion from accounting, upload of files (URLs under /c/<company_id>/expenses/,
docs/architecture.md; spec 2.3, 3, 4.3).

Modules: views (request -> response), forms (list filters, the edit form's rules), flow (the
reads side by side, exclusion, bulk actions), present (labels, detail groups, list rows, CSV
columns).
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.expenses import present, views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/bulk", "bulk", views.bulk, ["POST"]),
    ("/<int:expense_id>", "detail", views.detail, ["GET"]),
    ("/<int:expense_id>/file", "artifact", views.artifact, ["GET"]),
    ("/<int:expense_id>/exclude", "exclude", views.exclude, ["GET", "POST"]),
    ("/<int:expense_id>/include", "include", views.include, ["GET", "POST"]),
    ("/<int:expense_id>/edit", "edit", views.edit, ["GET", "POST"]),
    ("/new", "new", views.new, ["GET", "POST"]),
)
bp = company_blueprint("expenses", __name__, url_prefix="/expenses", routes=ROUTES)


@bp.context_processor
def _helpers() -> dict:
    return {"status_label": present.status_label, "status_badge": present.status_badge}
