"""Incomes: list with filters and CSV export, detail, edit from editable_fields, new accounting
documents and stornos, cancelling (URLs under /c/<company_id>/incomes/, DESIGN.md)."""
from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.nav import register_area

bp = company_blueprint("incomes", __name__, url_prefix="/incomes")


def init_app(app: Flask) -> None:
    """Register the incomes pages and their navigation entry."""
    from app.incomes import (  # noqa: F401
        views_detail,
        views_edit,
        views_list,
        views_new,
    )

    register_area(app, bp, _l("Incomes"), "incomes.index", order=20)


@bp.context_processor
def _labels() -> dict:
    from app.incomes import labels

    return {"kind_label": labels.type_label, "paid_label": labels.paid_label,
            "paid_badge": lambda status: labels.PAID_BADGE.get(status, "muted"),
            "payment_method_label": labels.payment_method_label,
            "accounting_label": labels.ACCOUNTING_STATUS.get,
            "cancel_label": labels.cancel_label}
