"""Review, save and delete: the only views that write to the upstream."""
from __future__ import annotations

from flask import flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.auth import current_actor
from app.errors import lost_write_response
from app.policies import has_errors
from app.policy_editor import bp, drafts
from app.policy_editor.cards import editor_model, flat_problems
from app.policy_editor.guards import refuse_if_readonly, refuse_if_stale
from app.policy_editor.history import DELETE, record_found, record_landed, record_save
from app.policy_editor.state import load_state
from app.policy_editor.stored import forget_created_records, refusal_text, save_stored
from app.templating import redirect_to
from app.upstream import PermissionDenied, RateLimited, Unavailable, ValidationError


@bp.get("/review")
def review():
    """What saving the draft changes, its problems, and the button that saves it."""
    state = load_state()
    if state.draft is None:
        flash(_("There are no unsaved changes."), "info")
        return redirect_to(url_for("policy_editor.index"))
    return _review_page(state)


def _review_page(state, upstream_errors=(), status: int = 200, problem: str | None = None):
    model = editor_model(state)
    context = {"state": state, "blocked": has_errors(state.problems),
               "upstream_errors": list(upstream_errors), "problem": problem, **model,
               "blocking": flat_problems(model["cards"], errors=True),
               "notes": flat_problems(model["cards"], errors=False)}
    return render_template("policies/review.html", **context), status


@bp.post("/save")
def save():
    """PATCH the draft as the whole configuration, record the version, end the draft."""
    state = load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused or state.draft is None:
        return refused or redirect_to(url_for("policy_editor.index"))
    if has_errors(state.problems):
        flash(_("The policies have errors; nothing was saved."), "error")
        return redirect_to(url_for("policy_editor.review"))
    if _landed(state):
        return _finish_landed(state)
    done = _write(state, state.draft.config, state.draft.origin,
                  lambda text: _review_page(state, problem=text)[0])
    if done is not None:
        return done
    flash(_("The income policies were saved."), "success")
    return redirect_to(url_for("policy_editor.index"))


def _landed(state) -> bool:
    """True when what is stored changed since the draft began and now is the draft: a save
    whose answer was lost went through (or someone saved the very same)."""
    stored = drafts.config_hash(state.stored)
    return state.draft.base != stored and drafts.config_hash(state.draft.config) == stored


def _finish_landed(state):
    """Record the save found stored and end the draft, without writing it again."""
    record_landed(state.company_id, state.stored, current_actor(), state.draft.origin)
    drafts.discard_draft(state.company_id)
    forget_created_records(state.company_id, state.stored)
    flash(_("The income policies were already saved; nothing was sent again."), "success")
    return redirect_to(url_for("policy_editor.index"))


def _write(state, config, origin, again):
    """Send config upstream and record it; a response when the upstream refused or did not
    answer (again(text) renders the page to show with that message), else None."""
    try:
        saved = save_stored(g.api, state.company_id, config)
    except (Unavailable, RateLimited) as exc:
        record_found(state.company_id, state.stored)
        return lost_write_response(again, exc, _(
            "The accounting service did not answer. The policies may already be saved: send "
            "again and Bookdesk checks first; nothing is saved twice.") if config is not None
            else _("The accounting service did not answer. The policies may already be "
                   "deleted: open the editor to check."),
            reload_url=url_for("policy_editor.index"))
    except PermissionDenied as exc:
        if exc.two_factor:
            raise
        drafts.remember_readonly(current_actor().fp, refusal_text(exc) or "403")
        flash(_("The accounting service did not let your token change the policies. Your "
                "draft is kept; an administrator's token can save it."), "warning")
        return redirect_to(url_for("policy_editor.index"))
    except ValidationError as exc:
        return _review_page(state, exc.messages(), status=400)
    record_save(state.company_id, state.stored, saved, current_actor(), origin)
    drafts.discard_draft(state.company_id)
    forget_created_records(state.company_id, saved)
    return None


@bp.route("/delete", methods=["GET", "POST"])
def delete():
    """Confirm, then delete the whole configuration (PATCH null)."""
    state = load_state()
    if state.stored is None:
        flash(_("There are no stored policy settings to delete."), "info")
        return redirect_to(url_for("policy_editor.index"))
    confirmed = request.method == "POST" and request.form.get("confirm") == "yes" and \
        request.form.get("stored") == drafts.config_hash(state.stored)
    if not confirmed:
        status = 200 if request.method == "GET" else 400
        return render_template("policies/delete.html", state=state,
                               stored_hash=drafts.config_hash(state.stored)), status
    refused = refuse_if_readonly(state) or _write(state, None, DELETE, lambda text: render_template(
        "policies/delete.html", state=state, stored_hash=drafts.config_hash(state.stored),
        problem=text))
    if refused:
        return refused
    flash(_("All income policy settings were deleted."), "success")
    return redirect_to(url_for("policy_editor.index"))
