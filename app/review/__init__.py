"""Review: the queue of incomes waiting for review, the keyboard-first review screen, bulk
"done", and undo from Bookdesk's own log (URLs under /c/<company_id>/review/, docs/architecture.md).

Modules: views (request -> response), forms (queue filters; what the reviewer saw and
PATCH-shaped values), flow (the queue, the walk through it, what a step shows), prefetch (the
incomes read ahead on a thread pool), actions (the writes on one income and their log: done,
save and done, skip, and what must be filled before Done), bulk (bulk done and undo, sent side
by side), present (reasons, rows, the screen's form, document, log).
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.review import present, views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/export", "export", views.export, ["GET"]),
    ("/bulk", "bulk_done", views.bulk_done, ["POST"]),
    ("/<int:income_id>", "screen", views.screen_page, ["GET"]),
    ("/<int:income_id>/done", "act", views.act, ["POST"]),
    ("/<int:income_id>/document", "document", views.document, ["GET"]),
    ("/actions", "actions", views.action_log, ["GET"]),
    ("/actions/export", "export_log", views.export_log, ["GET"]),
    ("/undo", "undo_action", views.undo_action, ["POST"]),
)
bp = company_blueprint("review", __name__, url_prefix="/review", routes=ROUTES)


@bp.context_processor
def _helpers() -> dict:
    return {"action_label": present.action_label, "logged_number": present.logged_number}
