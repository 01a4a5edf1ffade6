"""Creates that happen once per rendered form, however often it is submitted.

The form carries a one-time key (PageForm.form_key). The first submit claims it and sends the
create; a second submit of the same form waits for the first and lands where it did. A refused
or failed create releases the key, so the same form may be corrected and sent again.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from flask import flash, g
from flask_babel import gettext as _

from app.errors import error_response
from app.htmx import redirect_to
from app.store import idempotency

WAIT_SECONDS, WAIT_STEP = 10.0, 0.2


def create_once(form, purpose: str, send: Callable[[], dict], target: Callable[[dict], str],
                message: Callable[[dict], str]):
    """Send the create unless this form was already sent; the response, or None to re-render.

    Upstream refusals propagate (as ValidationError) with the key released.
    """
    claim = _claim(form, purpose)
    if claim is None or not claim.first:
        return None if claim is None else _repeat(claim)
    try:
        created = send()
    except Exception:
        idempotency.fail(form.form_key.data)
        raise
    url = target(created)
    idempotency.finish(form.form_key.data, {"url": url})
    flash(message(created), "success")
    return redirect_to(url)


def _claim(form, purpose: str) -> idempotency.Claim | None:
    """Claim the form's key; a repeat waits for the first submit (which may fail meanwhile,
    handing the key to this one). None, with a message on the form, for a foreign key."""
    key = form.form_key.data
    try:
        claim = idempotency.claim(key, g.company_id, purpose)
    except idempotency.KeyMismatchError:
        form.form_errors.append(_("This form has expired. Reload the page and try again."))
        return None
    deadline = time.monotonic() + WAIT_SECONDS
    while claim.pending and not claim.first and time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        claim = idempotency.claim(key, g.company_id, purpose)
    return claim


def _repeat(claim: idempotency.Claim):
    if claim.done and claim.result:
        flash(_("This form was already sent; nothing was created twice."), "info")
        return redirect_to(claim.result["url"])
    return error_response(409, _("This form is still being processed. Wait a moment, then "
                                 "reload the list to see the result."), _("Already sent"))
