"""The income policy editor under /c/<company_id>/policies/ (docs/architecture.md): the rule
lists, one rule's form, the preview of a draft over recent incomes, saving, history and files.
The engine it edits for is the package above (app/policies/).

Modules: views (request -> response), forms (one rule's form, the file upload), flow (the
stored configuration, the draft, the writing checks), editing (changes to the rule lists),
history (what a save changes, the saved versions), present (rule cards, the preview, the
history pages).

- The working draft lives in the server-side session, per company (flow.py). Every change is a
  plain form post (works without JavaScript); htmx swaps the changed part in place.
- Nothing goes upstream until the user confirms a save on the review page, and never while the
  engine's validation reports an error. The save PATCHes the whole configuration; rules are
  edited as merges into the dicts they came from, so keys the editor does not know survive.
- Read-only mode: the upstream does not tell a token's role, and a trial write is not
  acceptable, so the editor opens editable. When a save is refused with 403 the draft is kept,
  the editor turns read-only with the upstream's reason, and the session remembers it for that
  token (flow.remember_readonly) until the user asks to try again. A refusal the settings page
  met (same endpoint, same permission) opens the editor read-only from the start.
- Every save is recorded in Bookdesk's store (history.py): the replaced configuration first when
  the history does not hold it, then the new one, with the acting user's name and fingerprint.
"""
from __future__ import annotations

from app.auth import company_blueprint
from app.policies import labels
from app.policies.editor import present, views

ROUTES = (
    ("/", "index", views.index, ["GET"]),
    ("/act", "act", views.act, ["POST"]),
    ("/discard", "discard", views.discard, ["POST"]),
    ("/unlock", "unlock", views.unlock, ["POST"]),
    ("/rule", "rule", views.rule, ["GET", "POST"]),
    ("/preview", "preview", views.preview, ["GET"]),
    ("/review", "review", views.review, ["GET"]),
    ("/save", "save", views.save, ["POST"]),
    ("/delete", "delete", views.delete, ["GET", "POST"]),
    ("/history", "history_page", views.history_page, ["GET"]),
    ("/version", "version", views.version, ["GET"]),
    ("/restore", "restore", views.restore, ["POST"]),
    ("/export", "export", views.export, ["GET"]),
    ("/import", "import_file", views.import_file, ["GET", "POST"]),
)
bp = company_blueprint("policy_editor", __name__, url_prefix="/policies", routes=ROUTES)


@bp.context_processor
def _helpers() -> dict:
    return {"condition_words": present.condition_words, "match_text": present.match_text,
            "action_items": present.action_items, "part_share": present.part_share,
            "split_check": present.split_check, "rule_name": present.rule_name,
            "section_titles": labels.SECTION_TITLES,
            "op_kind": labels.op_kind, "field_kind": labels.field_kind}
