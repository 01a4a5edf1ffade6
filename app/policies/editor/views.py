"""The policy editor's views, request to response: the editor page with both rule lists and their
actions, one rule's form and the preview of the draft over recent incomes (nothing of these writes
upstream); then what is stored: review and save (the only views that write upstream), delete, the
history of saved versions and restoring one, and export and import of policy files."""
from __future__ import annotations

from datetime import date
from functools import partial

from flask import abort, flash, g, render_template, request, url_for
from flask_babel import gettext as _

import app.policies.editor.editing as editing
import app.policies.editor.flow as flow
import app.policies.editor.history as history
from app.auth import current_actor
from app.errors import lost_write_response
from app.forms.filters import arg_choice, arg_int
from app.numbers import company_today
from app.policies.editor.editing import Located, open_edit, posted_edit
from app.policies.editor.flow import (
    editor_url,
    refuse_if_misshapen,
    refuse_if_readonly,
    refuse_if_stale,
    target,
)
from app.policies.editor.forms import ImportForm
from app.policies.editor.history import diff_configs
from app.policies.editor.present import (
    DEFAULT_MONTHS,
    FILTERS,
    MONTH_CHOICES,
    editor_model,
    fetch_incomes,
    flat_problems,
    months_ago,
    run_preview,
)
from app.policies.validate import has_errors
from app.templating import is_htmx, redirect_to, render
from app.upstream import PermissionDenied, RateLimited, Unavailable, ValidationError, run_parallel
from app.upstream import company as upstream_company
from app.upstream.errors import upstream_messages

# -- the editor page ------------------------------------------------------------------------------

LIST_ACTIONS = {
    "move-up": lambda config, section, index: editing.move_rule(config, section, index, -1),
    "move-down": lambda config, section, index: editing.move_rule(config, section, index, 1),
    "toggle": editing.toggle_rule,
    "duplicate": editing.duplicate_rule,
    "delete": editing.delete_rule,
}


def index():
    """The rule lists of the draft (or of the stored configuration when there is no draft); a
    save or delete found done (its answer was lost) is recorded as the user's first."""
    state = flow.load_state()
    if _found_done(state):
        return redirect_to(url_for("policy_editor.index"))
    return render("policies/index.html", "policies/_editor.html", **_context(state))


def _context(state, focus: str | None = None) -> dict:
    return {"state": state, "focus": focus, **editor_model(state)}


def act():
    """Move, switch, duplicate or delete a rule, or set the multiple-match switch."""
    state = flow.load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused:
        return refused
    op = request.form.get("op", "")
    section, index = target(request.form)
    try:
        config, index = _apply(state.config, op, section, index)
    except editing.RuleNotFound:
        flash(_("That rule is no longer in the list."), "warning")
        return redirect_to(url_for("policy_editor.index"))
    flow.update_draft(state, config)
    return _after_act(state, op, section, index)


def _after_act(state, op: str, section: str, index: int | None):
    """The redrawn editor for htmx (focus on the rule acted on), else back to the page."""
    if is_htmx():
        return render("policies/index.html", "policies/_editor.html",
                      **_context(state, _focus(op, section, index)))
    return redirect_to(editor_url(section, index))


def _apply(config, op: str, section: str, index: int | None):
    """The changed configuration and the rule's new position."""
    if op == "switch":
        return editing.set_switch(config, request.form.get("value") == "on"), None
    if op not in LIST_ACTIONS or index is None:
        raise editing.RuleNotFound(op)
    changed = LIST_ACTIONS[op](config, section, index)
    moved = {"move-up": -1, "move-down": 1, "duplicate": 1}.get(op, 0)
    count = len(editing.rule_list(changed, section))
    return changed, None if op == "delete" else max(0, min(count - 1, index + moved))


def _focus(op: str, section: str, index: int | None) -> str | None:
    """Which control keeps the keyboard focus after the list is redrawn."""
    if index is None:
        return "switch" if op == "switch" else f"add-{section}"
    return f"{op}-{section}-{index}"


def discard():
    """Throw the draft away and show the stored configuration again."""
    flow.discard_draft(g.company_id)
    flash(_("Your unsaved changes were discarded."), "info")
    return redirect_to(url_for("policy_editor.index"))


def unlock():
    """Forget that a save was refused, so the user can try again (e.g. after a role change)."""
    flow.forget_readonly()
    return redirect_to(url_for("policy_editor.index"))


# -- one rule's form ------------------------------------------------------------------------------

def rule():
    """GET: the form of rule ?section=&index= (no index: a new rule). POST: check or apply."""
    state = flow.load_state()
    section, index = target(request.values)
    misshapen = refuse_if_misshapen(state)
    if misshapen:
        return misshapen
    if request.method == "GET":
        return _page(state, _opened(state, section, index))
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    return refused or _posted(state, section, index)


def _posted(state, section, index):
    """Re-show the form after a check or row action; apply a rule without errors."""
    try:
        edit, op = posted_edit(state, section, index, request.form)
    except editing.RuleNotFound:
        abort(404)
    broken = history.limit_problems(edit.config) if op == "apply" else []
    for problem in broken:
        flash(problem.text(_), "error")
    if op != "apply" or edit.has_errors or broken:
        return _page(state, edit, status=400 if op == "apply" else 200)
    flow.update_draft(state, edit.config)
    flash(_("%(name)s is in your draft. Review and save to make it take effect.",
            name=edit.rule.get("name")), "success")
    return redirect_to(editor_url(section, edit.position))


def _opened(state, section, index):
    try:
        return open_edit(state, section, index)
    except editing.RuleNotFound:
        abort(404)


def _page(state, edit, status: int = 200):
    context = {"state": state, "edit": edit, "form": edit.form, "notes": edit.notes}
    status = status if not is_htmx() else 200
    return render("policies/rule.html", "policies/_rule_form.html", **context), status


# -- the preview ----------------------------------------------------------------------------------

def preview():
    """What the draft would do to recent incomes (?months=, ?show= filter)."""
    months = arg_int(request.args, "months", DEFAULT_MONTHS)
    months = months if months in MONTH_CHOICES else DEFAULT_MONTHS
    show = request.args.get("show") if request.args.get("show") in FILTERS else "all"
    since = months_ago(company_today(), months)
    found = _read_side_by_side(since)
    incomes, truncated = found.pop("incomes")
    state = flow.load_state(data=flow.editor_data(found))
    context = {"state": state, "months": months, "month_choices": MONTH_CHOICES, "show": show,
               "filters": FILTERS, "result": None, "blocked": has_errors(state.problems)}
    if not context["blocked"]:
        context["result"] = run_preview(state.config, incomes, state.catalogs, since)
        context["result"].truncated = truncated
    return render("policies/preview.html", "policies/_preview_results.html", **context)


def _read_side_by_side(since: date) -> dict:
    """The incomes do not depend on the stored configuration: one round trip for both."""
    tasks = flow.editor_tasks(g.api, currencies=True)
    tasks["incomes"] = partial(fetch_incomes, g.api, since)
    return run_parallel(tasks)


# -- review, save, delete -------------------------------------------------------------------------

def review():
    """What saving the draft changes, its problems, and the button that saves it."""
    state = flow.load_state()
    if state.draft is None:
        flash(_("There are no unsaved changes."), "info")
        return redirect_to(url_for("policy_editor.index"))
    return _review_page(state)


def _review_page(state, upstream_errors=(), status: int = 200, problem: str | None = None):
    model = editor_model(state)
    context = {"state": state, "blocked": has_errors(state.problems),
               "stored_hash": flow.config_hash(state.stored),
               "upstream_errors": list(upstream_errors), "problem": problem, **model,
               "blocking": flat_problems(model["cards"], errors=True),
               "notes": flat_problems(model["cards"], errors=False)}
    return render_template("policies/review.html", **context), status


def save():
    """PATCH the draft as the whole configuration, record the version, end the draft."""
    state = flow.load_state(catalogs=False)
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused or state.draft is None:
        return refused or redirect_to(url_for("policy_editor.index"))
    if has_errors(state.problems):
        flash(_("The policies have errors; nothing was saved."), "error")
        return redirect_to(url_for("policy_editor.review"))
    if _found_done(state):
        return redirect_to(url_for("policy_editor.index"))
    stopped = _over_another_save(state)
    done = stopped or _write(state, state.draft.config, state.draft.origin,
                             lambda text: _review_page(state, problem=text)[0])
    if done is not None:
        return done
    flash(_("The income policies were saved."), "success")
    return redirect_to(url_for("policy_editor.index"))


def _over_another_save(state):
    """The review again (409), nothing sent, when the save would go over one the reviewer has
    not seen, or take back one made since the draft began without the box ticked."""
    if request.form.get("stored") != flow.config_hash(state.stored):
        return _review_page(state, status=409, problem=_(
            "Someone saved the income policies while you were reviewing them, so nothing was "
            "saved. The changes below are now compared with what they saved: check them, then "
            "save again."))
    if state.undone_texts and not request.form.get("take_back"):
        return _review_page(state, status=409, problem=_(
            "Saving your draft would take back changes saved since you began (marked below), "
            "so nothing was saved. Tick the box to take them back, or set those rules in your "
            "draft as they were saved to keep them."))
    return None


def _landed(state) -> bool:
    """True when what is stored changed since the draft began and now is the draft: a save
    whose answer was lost went through (or someone saved the very same)."""
    stored = flow.config_hash(state.stored)
    return state.draft.base != stored and flow.config_hash(state.draft.config) == stored


def _found_done(state, confirmed: str | None = None) -> bool:
    """Whether a write whose answer was lost is found done, then recorded as this user's: a
    delete (nothing stored; confirmed: its hash, when sent again), or the draft's save."""
    if _delete_landed(state, confirmed):
        _finish_landed(state, history.DELETE, _(
            "The income policy settings were already deleted; nothing was sent again."))
    elif state.draft is not None and _landed(state):
        _finish_landed(state, state.draft.origin, _(
            "The income policies were already saved; nothing was sent again."))
    else:
        return False
    return True


def _delete_landed(state, confirmed: str | None) -> bool:
    """True when nothing is stored and a delete whose answer was lost went through: what it
    confirmed (sent again, else kept in this session when the answer was lost) is the last
    version known."""
    kept = flow.pop_lost_delete(state.company_id)
    return state.stored is None and history.delete_landed(
        state.company_id, confirmed or kept, flow.config_hash)


def _finish_landed(state, origin: str, done: str) -> None:
    """Record the save or delete (origin) found stored as this user's, end the draft and say
    so (done), without writing it again."""
    history.record_landed(state.company_id, state.stored, current_actor(), origin)
    flow.discard_draft(state.company_id)
    flow.forget_created_records(state.company_id, state.stored)
    flash(done, "success")


def _write(state, config, origin, again):
    """Send config upstream and record it; a response when the upstream refused or did not
    answer (again(text) renders the page to show with that message), else None."""
    try:
        saved = upstream_company.save_income_policies(g.api, state.company_id, config)
    except (Unavailable, RateLimited) as exc:
        return _unanswered_write(state, config, again, exc)
    except PermissionDenied as exc:
        if exc.two_factor:
            raise
        return _read_only_token()
    except ValidationError as exc:
        return _review_page(state, upstream_messages(exc), status=400)
    history.record_save(state.company_id, state.stored, saved, current_actor(), origin)
    flow.discard_draft(state.company_id)
    flow.forget_created_records(state.company_id, saved)
    return None


def _unanswered_write(state, config, again, exc):
    """The save (config) or delete (None) got no answer: record what stands upstream, and say
    that it may have happened (again(text) renders the page to send again)."""
    history.record_found(state.company_id, state.stored)
    if config is None:
        flow.remember_lost_delete(state.company_id, flow.config_hash(state.stored))
    return lost_write_response(again, exc, _(
        "The accounting service did not confirm the request. The policies may already be saved: "
        "send again and Bookdesk checks first; nothing is saved twice.") if config is not None
        else _("The accounting service did not confirm the request. The policies may already be "
               "deleted: open the editor to check."),
        reload_url=url_for("policy_editor.index"))


def _read_only_token():
    """The token may not change the policies: remember it, keep the draft, back to the editor."""
    flow.remember_readonly()
    flash(_("The accounting service did not let your token change the policies. Your "
            "draft is kept; an administrator's token can save it."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def delete():
    """Confirm, then delete the whole configuration (PATCH null)."""
    state = flow.load_state()
    confirmed = request.method == "POST" and request.form.get("confirm") == "yes"
    if state.stored is None:
        return _nothing_to_delete(state, confirmed)
    confirmed = confirmed and request.form.get("stored") == flow.config_hash(state.stored)
    if not confirmed:
        status = 200 if request.method == "GET" else 400
        return render_template("policies/delete.html", state=state,
                               stored_hash=flow.config_hash(state.stored)), status
    refused = refuse_if_readonly(state) or _write(
        state, None, history.DELETE, lambda text: render_template(
            "policies/delete.html", state=state, stored_hash=flow.config_hash(state.stored),
            problem=text))
    if refused:
        return refused
    flash(_("All income policy settings were deleted."), "success")
    return redirect_to(url_for("policy_editor.index"))


def _nothing_to_delete(state, confirmed: bool):
    """Nothing stored: a delete whose first send went through (its answer lost) is recorded as
    this user's now; else there was nothing to delete."""
    if not _found_done(state, request.form.get("stored") if confirmed else None):
        flash(_("There are no stored policy settings to delete."), "info")
    return redirect_to(url_for("policy_editor.index"))


# -- history --------------------------------------------------------------------------------------

def history_page():
    """Saved versions, newest first: when, who, what changed; a delete this session sent whose
    answer was lost is recorded first when found done."""
    lost = flow.pop_lost_delete(g.company_id)
    if lost is not None:
        _found_done(flow.load_state(catalogs=False), lost)
    return render_template("policies/history.html", history_entries=history.entries(
        g.company_id, flow.load_catalogs(g.api)),
                           actor_text=history.actor_text)


def version():
    """One version (?id=): its rules, its JSON, and what restoring it would change."""
    found = history.find(g.company_id, request.args.get("id"))
    if found is None:
        abort(404)
    state = flow.load_state()
    shown = _VersionState(found.config or {}, state)
    changes = diff_configs(state.stored, found.config, catalogs=state.catalogs)
    broken = history.limit_problems(found.config)
    return render_template("policies/version.html", version=found, state=state,
                           changes=[change.text(_) for change in changes],
                           broken=[problem.text(_) for problem in broken],
                           action=history.action_text(
                               found.note, history.is_oldest(g.company_id, found)),
                           actor_text=history.actor_text, json_text=history.readable_json(
                               found.config), **editor_model(shown))


class _VersionState:
    """Enough of an EditorState for editor_model(): a configuration and its problems."""

    def __init__(self, config, state):
        self.config, self.catalogs = config, state.catalogs
        self.problems = flow.all_problems(config)


def restore():
    """Load a version into the draft; it is saved from the review page like any change."""
    state = flow.load_state()
    refused = refuse_if_readonly(state) or refuse_if_stale(state, request.form.get("rev"))
    if refused:
        return refused
    found = history.find(g.company_id, request.form.get("id"))
    if found is None or found.config is None:
        abort(404)
    flow.update_draft(state, found.config, origin=f"restore:{found.id}")
    flash(_("Version %(id)s is loaded into your draft. Check the changes, then save.",
            id=found.id), "info")
    return redirect_to(url_for("policy_editor.review"))


# -- export and import ----------------------------------------------------------------------------

EXPORTS = ("stored", "draft", "version")


def export():
    """Download ?what=stored (default), draft, or a version (?id=) as a JSON file."""
    what = arg_choice(request.args, "what", EXPORTS, "stored")
    if what == "version":
        found = history.find(g.company_id, request.args.get("id"))
        if found is None:
            abort(404)
        return history.export_response(found.config, g.company_id, f"v{found.id}")
    if what == "draft":
        state = flow.load_state()
        return history.export_response(state.config, g.company_id, "draft")
    return history.export_response(upstream_company.income_policies(g.api), g.company_id, "saved")


def import_file():
    """Upload a policy file; a readable one becomes the draft and goes to the review page."""
    state = flow.load_state()
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(state, form, status=400 if request.method == "POST" else 200)
    refused = refuse_if_readonly(state)
    if refused:
        return refused
    try:
        config = history.read_upload(form.file.data)
    except history.UnreadableFile as exc:
        form.file.errors = [str(exc)]
        return _import_page(state, form)
    if flow.shape_problems(config):
        return _import_page(state, form, config)
    flow.update_draft(state, config, origin=f"import:{history.file_name(form.file.data)}")
    return redirect_to(url_for("policy_editor.review"))


def _import_page(state, form, config=None, status: int = 400):
    """The upload form, with why a file was refused and how it differs from what is saved."""
    problems = [Located("file", "/".join(map(str, p.path)), p.text(_), p.level)
                for p in flow.shape_problems(config)] if config is not None else []
    changes = [c.text(_) for c in diff_configs(
        state.stored, config, catalogs=state.catalogs)] if problems else []
    return render_template("policies/import.html", state=state, form=form, problems=problems,
                           changes=changes), status
