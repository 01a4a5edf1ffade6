"""Incomes: list with filters and CSV export, detail, edit from editable_fields, new accounting
documents and stornos, cancelling (URLs under /c/<company_id>/incomes/, DESIGN.md)."""
from __future__ import annotations

from app.auth import company_blueprint

bp = company_blueprint("incomes", __name__, url_prefix="/incomes")


@bp.context_processor
def _labels() -> dict:
    from app.incomes import labels

    return {"kind_label": labels.type_label, "paid_label": labels.paid_label,
            "paid_badge": lambda status: labels.PAID_BADGE.get(status, "muted"),
            "payment_method_label": labels.payment_method_label,
            "accounting_label": labels.ACCOUNTING_STATUS.get,
            "cancel_label": labels.cancel_label}

from app.incomes import views_detail, views_edit, views_list, views_new  # noqa: E402,F401
