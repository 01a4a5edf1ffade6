"""Expenses: list with every filter and CSV export, detail with the artifact, edit from
editable_fields, exclusion from accounting, upload of files (URLs under /c/<company_id>/expenses/,
DESIGN.md; spec 2.3, 3, 4.3)."""
from __future__ import annotations

from app.auth import company_blueprint

bp = company_blueprint("expenses", __name__, url_prefix="/expenses")


@bp.context_processor
def _helpers() -> dict:
    from app.expenses import labels

    return {"paid_label": labels.paid_label, "paid_badge": labels.paid_badge,
            "status_label": labels.status_label, "status_badge": labels.status_badge,
            "method_label": labels.method_label}

from app.expenses import (  # noqa: E402,F401
    views_bulk,
    views_detail,
    views_edit,
    views_list,
    views_new,
)
