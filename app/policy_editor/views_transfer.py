"""Export the configuration as JSON; import a JSON file into the draft after checking it."""
from __future__ import annotations

from flask import abort, g, render_template, request, url_for
from flask_babel import gettext as _

from app.params import arg_choice
from app.policies import diff_configs
from app.policy_editor import bp, history
from app.policy_editor.guards import refuse_if_readonly
from app.policy_editor.problems import Located
from app.policy_editor.state import load_state, shape_problems, update_draft
from app.policy_editor.stored import load_stored
from app.policy_editor.transfer import (
    ImportForm,
    UnreadableFile,
    export_response,
    file_name,
    read_upload,
)
from app.templating import redirect_to

EXPORTS = ("stored", "draft", "version")


@bp.get("/export")
def export():
    """Download ?what=stored (default), draft, or a version (?id=) as a JSON file."""
    what = arg_choice(request.args, "what", EXPORTS, "stored")
    if what == "version":
        found = history.find(g.company_id, request.args.get("id"))
        if found is None:
            abort(404)
        return export_response(found.config, g.company_id, f"v{found.id}")
    if what == "draft":
        state = load_state()
        return export_response(state.config, g.company_id, "draft")
    return export_response(load_stored(g.api), g.company_id, "saved")


@bp.route("/import", methods=["GET", "POST"])
def import_file():
    """Upload a policy file; a readable one becomes the draft and goes to the review page."""
    state = load_state()
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(state, form, status=400 if request.method == "POST" else 200)
    refused = refuse_if_readonly(state)
    if refused:
        return refused
    try:
        config = read_upload(form.file.data)
    except UnreadableFile as exc:
        form.file.errors = [str(exc)]
        return _import_page(state, form)
    if shape_problems(config):
        return _import_page(state, form, config)
    update_draft(state, config, origin=f"import:{file_name(form.file.data)}")
    return redirect_to(url_for("policy_editor.review"))


def _import_page(state, form, config=None, status: int = 400):
    """The upload form, with why a file was refused and how it differs from what is saved."""
    problems = [Located("file", "/".join(map(str, p.path)), p.text(_), p.level)
                for p in shape_problems(config)] if config is not None else []
    changes = [c.text(_) for c in diff_configs(state.stored, config)] if problems else []
    return render_template("policies/import.html", state=state, form=form, problems=problems,
                           changes=changes), status
