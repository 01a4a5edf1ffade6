"""Uploading one or more files as new expenses: checked first, sent once, refusals explained."""
from __future__ import annotations

from flask import flash, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.expenses import bp, upload
from app.htmx import redirect_to, render
from app.store import idempotency


@bp.route("/new", methods=["GET", "POST"])
def new():
    """The upload form; a valid submit creates one expense per file, once."""
    key = request.form.get("form_key") or idempotency.new_key()
    outcome, problems = upload.Outcome(), []
    if request.method == "POST":
        found = upload.read_files(request.files.getlist("files"))
        if found == []:
            problems.append(_("Choose at least one file."))
        elif isinstance(found, upload.Outcome):
            outcome = found
        else:
            done = _submit(key, found)
            if not isinstance(done, upload.Outcome):
                return done
            outcome, key = done, idempotency.new_key()
    status = 400 if problems or outcome.refused else 200
    return render("expenses/new.html", "expenses/_upload.html", form_key=key,
                  outcome=outcome, problems=problems, max_files=upload.MAX_FILES), status


def _submit(key: str, uploads: list):
    """Claim the key, send the files, remember where it led; a repeat lands there too."""
    try:
        claim = upload.claim(key)
    except idempotency.KeyMismatchError:
        return upload.Outcome(refused=[("", _("This form has expired. Reload the page and "
                                              "try again."))])
    if not claim.first:
        return _earlier(claim)
    try:
        outcome = upload.send_all(uploads)
    except Exception:
        idempotency.fail(key)
        raise
    if not outcome.created:
        idempotency.fail(key)
        return outcome
    target = _target(outcome.created)
    idempotency.finish(key, {"url": target, "ids": [c["id"] for c in outcome.created]})
    if outcome.refused:
        return outcome
    flash(ngettext("%(num)s file was uploaded as a new expense.",
                   "%(num)s files were uploaded as new expenses.", len(outcome.created)),
          "success")
    return redirect_to(target)


def _target(created: list[dict]) -> str:
    if len(created) == 1:
        return url_for(".detail", expense_id=created[0]["id"])
    return url_for(".index")


def _earlier(claim):
    if claim.done and claim.result:
        flash(_("These files were already sent; here is what they created."), "info")
        return redirect_to(claim.result["url"])
    return render("expenses/pending.html", "expenses/_pending.html"), 409
