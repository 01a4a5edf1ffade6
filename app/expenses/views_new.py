"""Uploading one or more files as new expenses: checked first, sent once, refusals explained."""
from __future__ import annotations

from datetime import datetime
from functools import partial

from flask import request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.expenses import bp, upload
from app.once import (
    EXPIRED,
    ExpiredKey,
    LostAnswer,
    Recovery,
    Sent,
    rate_limited_message,
    repeat_response,
    send_once,
)
from app.store import idempotency
from app.templating import render
from app.upstream import RateLimited


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
    try:
        done = _submit(key, found)
    except LostAnswer as exc:
        # Same key: a resend looks for what the lost one may have made before sending.
        return _page(key, upload.Outcome(), [str(exc)], 503)
    except RateLimited as exc:
        return _page(key, upload.Outcome(), [rate_limited_message(exc)], 429)
    # A form whose key was used gets a fresh one: the next submit is a new upload.
    return _page(idempotency.new_key(), done) if isinstance(done, upload.Outcome) else done


def _page(key: str, outcome, problems: list | tuple = (), status: int | None = None):
    status = status or (400 if problems or outcome.refused else 200)
    return render("expenses/new.html", "expenses/_upload.html", form_key=key, outcome=outcome,
                  problems=problems, max_files=upload.MAX_FILES), status


def _submit(key: str, uploads: list):
    """Send once; a repeat lands where the first did. An Outcome for the page, or a response."""
    try:
        return send_once(key, upload.PURPOSE, partial(_send, uploads), repeat=_earlier,
                         recover=_recovery(uploads))
    except ExpiredKey:
        return upload.Outcome(refused=[("", str(EXPIRED))])


def _recovery(uploads: list) -> Recovery:
    """A lost upload is found by its first file's name among expenses created since the send.

    Only the first file's answer reaches here lost (later ones are read back as they fail), so
    the files after it were not sent.
    """
    first = uploads[0]

    def find(since: datetime) -> str | None:
        found = upload.find_created(first, since - upload.CLOCK_SLACK)
        return url_for(".detail", expense_id=found["id"]) if found else None

    found = _("The accounting service answered late, but %(filename)s was uploaded as a new "
              "expense.", filename=first.filename)
    if len(uploads) > 1:
        found += " " + _("The other files were not sent: upload them again.")
    return Recovery(find, found=found, not_created=_(
        "The accounting service did not answer, and no expense was created. It is safe to "
        "send the files again."), unconfirmed=_(
        "The accounting service did not answer, and it is not yet known whether the files "
        "were uploaded. Choose the same files and send them again in a moment: Bookdesk "
        "checks first and does not upload them twice."))


def _send(uploads: list) -> Sent:
    """Send the files; the key remembers what was created, or is freed when nothing was."""
    outcome = upload.send_all(uploads)
    url = _target(outcome.created) if outcome.created else None
    if outcome.refused or not outcome.created:
        return Sent(url, response=outcome)
    return Sent(url, ngettext("%(num)s file was uploaded as a new expense.",
                              "%(num)s files were uploaded as new expenses.",
                              len(outcome.created)))


def _target(created: list[dict]) -> str:
    if len(created) == 1:
        return url_for(".detail", expense_id=created[0]["id"])
    return url_for(".index")


def _earlier(claim):
    return repeat_response(claim, _("These files were already sent; here is what they created."),
                           pending=lambda: (render("expenses/pending.html",
                                                   "expenses/_pending.html"), 409))
