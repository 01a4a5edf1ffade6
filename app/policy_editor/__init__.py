"""The income-policy editor under /c/<company_id>/policies/ (issue 7, DESIGN.md).

How it works:
- The working draft lives in the server-side session, per company (drafts.py). Every change is
  a plain form post (works without JavaScript); htmx swaps the changed part in place.
- Nothing goes upstream until the user confirms a save on the review page, and never while the
  engine's validation reports an error. The save PATCHes the whole configuration; rules are
  edited as merges into the dicts they came from, so keys the editor does not know survive.
- Read-only mode: the upstream does not tell a token's role, and a trial write is not
  acceptable, so the editor opens editable. When a save is refused with 403 the draft is kept,
  the editor turns read-only with the upstream's reason, and the session remembers it for that
  token (drafts.remember_readonly) until the user asks to try again. A refusal the settings page
  met (same endpoint, same permission) opens the editor read-only from the start.
- Every save is recorded in Bookdesk's store (history.py): the replaced configuration first when
  the history does not hold it, then the new one, with the acting user's name and fingerprint.
"""
from __future__ import annotations

from app.auth import company_blueprint

bp = company_blueprint("policy_editor", __name__, url_prefix="/policies")


@bp.context_processor
def _helpers() -> dict:
    from app.policy_editor import summary
    from app.policy_editor.labels import SECTION_TITLES, field_kind, op_kind

    return {"condition_text": summary.condition_text, "match_text": summary.match_text,
            "action_items": summary.action_items, "part_share": summary.part_share,
            "split_check": summary.split_check, "section_titles": SECTION_TITLES,
            "op_kind": op_kind, "field_kind": field_kind}

from app.policy_editor import (  # noqa: E402,F401
    views_editor,
    views_history,
    views_preview,
    views_rule,
    views_save,
    views_transfer,
)
