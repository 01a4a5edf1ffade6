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
    """Send the create unless this form was already sent; the response to return, or None.

    None means the form has something to show (an expired key); upstream refusals propagate
    as ValidationError with the key released.
    """
    key = form.form_key.data
    try:
        claim = idempotency.claim(key, g.company_id, purpose)
    except idempotency.KeyMismatchError:
        form.form_errors.append(_("This form has expired. Reload the page and try again."))
        return None
    if not claim.first:
        # The first submit may fail meanwhile; then this one owns the key and sends.
        claim = _wait(key, purpose, claim)
    if not claim.first:
        return _repeat(claim)
    try:
        created = send()
    except Exception:
        idempotency.fail(key)
        raise
    url = target(created)
    idempotency.finish(key, {"url": url})
    flash(message(created), "success")
    return redirect_to(url)


def _wait(key: str, purpose: str, claim: idempotency.Claim) -> idempotency.Claim:
    """A second submit waits briefly while the first is still under way."""
    deadline = time.monotonic() + WAIT_SECONDS
    while claim.pending and time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        claim = idempotency.claim(key, g.company_id, purpose)
    return claim


def _repeat(claim: idempotency.Claim):
    if claim.done and claim.result:
        flash(_("This form was already sent; nothing was created twice."), "info")
        return redirect_to(claim.result["url"])
    return error_response(409, _("This form is still being processed. Wait a moment, then "
                                 "reload the list to see the result."), _("Already sent"))
