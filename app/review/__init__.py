"""Review: the queue of incomes waiting for review, the keyboard-first review screen, bulk
"done", and undo from Bookdesk's own log (URLs under /c/<company_id>/review/, DESIGN.md).

Modules: filters (URL filters), queue (API page or local scan), reasons (why an income needs
attention), walk (the queue's ids in the session), prefetch (the next incomes read ahead),
screen (the review form), compare (what the reviewer saw vs. now), required (what must be
filled before Done), actions / bulk / undo (the writes and their log), document (the image
proxy), flow (what a step shows next), views_*.
"""
from __future__ import annotations

from app.auth import company_blueprint

bp = company_blueprint("review", __name__, url_prefix="/review")


@bp.context_processor
def _helpers() -> dict:
    from app.incomes import present
    from app.review.log_view import action_label

    return {"kind_label": present.type_label, "action_label": action_label}

from app.review import views_log, views_queue, views_screen  # noqa: E402,F401
