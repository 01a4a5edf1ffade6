"""The create grid is sent at most once per rendering, however often it is submitted.

The grid carries a one-time key (app.store.idempotency). The first submit claims it and sends;
a second submit of the same grid waits for the first and lands where it did. A refused or
failed create releases the key, so the corrected grid may be sent again.
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


class ExpiredKey(Exception):
    """The key was issued for another company or form."""


def send_once(key: str, purpose: str, send: Callable[[], tuple[str, str]]):
    """Run `send` (returns target URL and message) unless this key was already used.

    Returns the response to give; upstream refusals propagate with the key released.
    """
    try:
        claim = idempotency.claim(key, g.company_id, purpose)
    except idempotency.KeyMismatchError:
        raise ExpiredKey(key) from None
    if not claim.first:
        claim = _wait(key, purpose, claim)
    if not claim.first:
        return _repeat(claim)
    try:
        url, message = send()
    except Exception:
        idempotency.fail(key)
        raise
    idempotency.finish(key, {"url": url})
    flash(message, "success")
    return redirect_to(url)


def _wait(key: str, purpose: str, claim: idempotency.Claim) -> idempotency.Claim:
    # The first submit may fail meanwhile; then this one owns the key and sends.
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
