"""History: every version saved from Bookdesk, one version in full, and restoring one."""
from __future__ import annotations

from flask import abort, flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.policies import diff_configs
from app.policy_editor import bp, history
from app.policy_editor.cards import editor_model
from app.policy_editor.guards import refuse_if_readonly, refuse_if_stale
from app.policy_editor.limits import limit_problems
from app.policy_editor.state import all_problems, load_state, update_draft
from app.templating import redirect_to


@bp.get("/history")
def history_page():
    """Saved versions, newest first: when, who, what changed."""
    return render_template("policies/history.html", history_entries=history.entries(g.company_id),
                           actor_text=history.actor_text)


@bp.get("/version")
def version():
    """One version (?id=): its rules, its JSON, and what restoring it would change."""
    found = history.find(g.company_id, request.args.get("id"))
    if found is None:
        abort(404)
    state = load_state()
    shown = _VersionState(found.config or {}, state)
    changes = diff_configs(state.stored, found.config)
    return render_template("policies/version.html", version=found, state=state,
                           changes=[change.text(_) for change in changes],
                           broken=[problem.text(_) for problem in limit_problems(found.config)],
                           action=history.action_text(
                               found.note, history.is_oldest(g.company_id, found)),
                           actor_text=history.actor_text, **editor_model(shown))


class _VersionState:
    """Enough of an EditorState for editor_model(): a configuration and its problems."""

    def __init__(self, config, state):
        self.config, self.catalogs, self.problems = config, state.catalogs, all_problems(config)


@bp.post("/restore")
def restore():
    """Load a version into the draft; it is saved from the review page like any change."""
    state = load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused:
        return refused
    found = history.find(g.company_id, request.form.get("id"))
    if found is None or found.config is None:
        abort(404)
    update_draft(state, found.config, origin=f"restore:{found.id}")
    flash(_("Version %(id)s is loaded into your draft. Check the changes, then save.",
            id=found.id), "info")
    return redirect_to(url_for("policy_editor.review"))
