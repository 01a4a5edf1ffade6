"""Checks every writing view makes: a known rule, a writable editor, the draft it saw."""
from __future__ import annotations

from flask import abort, flash, url_for
from flask_babel import gettext as _

from app.htmx import redirect_to
from app.policy_editor.rules import SECTIONS


def target(values) -> tuple[str, int | None]:
    """(section, index) from the request; index None means a new rule; 404 when malformed."""
    section = values.get("section") or "policies"
    raw = (values.get("index") or "").strip()
    if section not in SECTIONS or (raw and not raw.isdigit()):
        abort(404)
    return section, int(raw) if raw else None


def refuse_if_readonly(state):
    """A redirect to the editor when this session's token may not save, else None."""
    if not state.readonly:
        return None
    flash(_("Your token may not change the policies, so the editor is read-only."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def refuse_if_stale(state, posted_rev):
    """A redirect when the form was made from an older draft (another tab changed it)."""
    if str(posted_rev or "0") == str(state.rev):
        return None
    flash(_("The draft was changed in another window in the meantime. Here it is as it is "
            "now; please make your change again."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def editor_url(section: str | None = None, index: int | None = None) -> str:
    """The editor, scrolled to one rule when given."""
    anchor = f"#rule-{section}-{index}" if section and index is not None else ""
    return url_for("policy_editor.index") + anchor
