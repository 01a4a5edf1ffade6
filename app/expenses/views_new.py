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
    if request.method == "GET":
        return _page(key, upload.Outcome())
    found = upload.read_files(request.files.getlist("files"))
    if found == []:
        return _page(key, upload.Outcome(), [_("Choose at least one file.")])
    if isinstance(found, upload.Outcome):
        return _page(key, found)
    done = _submit(key, found)
    # A form whose key was used gets a fresh one: the next submit is a new upload.
    return _page(idempotency.new_key(), done) if isinstance(done, upload.Outcome) else done


def _page(key: str, outcome, problems: list | tuple = ()):
    status = 400 if problems or outcome.refused else 200
    return render("expenses/new.html", "expenses/_upload.html", form_key=key, outcome=outcome,
                  problems=problems, max_files=upload.MAX_FILES), status


def _submit(key: str, uploads: list):
    """Claim the key and send; a repeat of the same form lands where the first one did."""
    try:
        claim = upload.claim(key)
    except idempotency.KeyMismatchError:
        return upload.Outcome(refused=[("", _("This form has expired. Reload the page and "
                                              "try again."))])
    if not claim.first:
        return _earlier(claim)
    outcome = _send(key, uploads)
    if outcome.refused or not outcome.created:
        return outcome
    flash(ngettext("%(num)s file was uploaded as a new expense.",
                   "%(num)s files were uploaded as new expenses.", len(outcome.created)),
          "success")
    return redirect_to(_target(outcome.created))


def _send(key: str, uploads: list) -> upload.Outcome:
    """Send the files; the key remembers what was created, or is freed when nothing was."""
    try:
        outcome = upload.send_all(uploads)
    except Exception:
        idempotency.fail(key)
        raise
    if outcome.created:
        idempotency.finish(key, {"url": _target(outcome.created),
                                 "ids": [item["id"] for item in outcome.created]})
    else:
        idempotency.fail(key)
    return outcome


def _target(created: list[dict]) -> str:
    if len(created) == 1:
        return url_for(".detail", expense_id=created[0]["id"])
    return url_for(".index")


def _earlier(claim):
    if claim.done and claim.result:
        flash(_("These files were already sent; here is what they created."), "info")
        return redirect_to(claim.result["url"])
    return render("expenses/pending.html", "expenses/_pending.html"), 409
