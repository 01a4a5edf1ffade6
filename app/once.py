"""Creates that happen once per rendered form, however often it is submitted.

The form carries a one-time key (app.store.idempotency). The first submit claims it and sends;
a second submit of the same form waits for the first and lands where it did. A refused or
failed send releases the key, so the corrected form may be sent again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from flask import flash, g
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.errors import error_response
from app.htmx import redirect_to
from app.store import idempotency

EXPIRED = _l("This form has expired. Reload the page and try again.")


class ExpiredKey(Exception):
    """The key was issued for another company or form."""


class Sent(NamedTuple):
    """What a first submit did: where it leads (None: nothing was created) and what to say.

    response, when given, is answered instead of the flash and redirect (e.g. a page that
    lists what was refused next to what was created).
    """

    url: str | None
    message: str = ""
    response: Any = None


def send_once(key: str, purpose: str, send: Callable[[], Sent], *,
              repeat: Callable[[idempotency.Claim], Any] | None = None):
    """Run send() unless this key was already used; return the response to give.

    A repeat gets repeat(claim) (default repeat_response). Exceptions from send propagate
    with the key released, as does a Sent without a url.
    """
    try:
        claim = idempotency.claim_waiting(key, g.company_id, purpose)
    except idempotency.KeyMismatchError:
        raise ExpiredKey(key) from None
    if not claim.first:
        return (repeat or repeat_response)(claim)
    try:
        sent = send()
    except Exception:
        idempotency.fail(key)
        raise
    if sent.url is None:
        idempotency.fail(key)
    else:
        idempotency.finish(key, {"url": sent.url})
    if sent.response is not None:
        return sent.response
    flash(sent.message, "success")
    return redirect_to(sent.url)


def repeat_response(claim: idempotency.Claim, message: str | None = None,
                    pending: Callable[[], Any] | None = None):
    """Where a repeated submit lands: where the first one did, or a 409 while it still runs."""
    if claim.done and claim.result:
        flash(message or _("This form was already sent; nothing was created twice."), "info")
        return redirect_to(claim.result["url"])
    if pending is not None:
        return pending()
    return error_response(409, _("This form is still being processed. Wait a moment, then "
                                 "reload the list to see the result."), _("Already sent"))


def create_once(form, purpose: str, send: Callable[[], dict], target: Callable[[dict], str],
                message: Callable[[dict], str]):
    """Send a form's create once (its key in form.form_key); None to re-render the form.

    An expired key leaves a message on the form; upstream refusals propagate.
    """
    def sent() -> Sent:
        created = send()
        return Sent(target(created), message(created))

    try:
        return send_once(form.form_key.data, purpose, sent)
    except ExpiredKey:
        form.form_errors.append(str(EXPIRED))
        return None
