"""Checks every writing view makes: a known rule, a writable editor, the draft it saw."""
from __future__ import annotations

from flask import abort, flash, url_for
from flask_babel import gettext as _

from app.params import whole
from app.policy_editor.rules import SECTIONS
from app.templating import redirect_to


def target(values) -> tuple[str, int | None]:
    """(section, index) from the request; index None means a new rule; 404 for an unknown
    section, 400 for an index that is not a number."""
    section = values.get("section") or "policies"
    if section not in SECTIONS:
        abort(404)
    return section, whole(values.get("index"), "index")


def refuse_if_misshapen(state):
    """A redirect to the editor (which lists the problems) when the draft cannot be edited as
    a form, else None."""
    return redirect_to(url_for("policy_editor.index")) if state.shape else None


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
