"""Creates that happen once per rendered form, however often it is submitted.

The form carries a one-time key (app.store.idempotency). The first submit claims it and sends;
a second submit of the same form waits for the first and lands where it did. A refused send, or
one the upstream asked to wait with (RateLimited: not sent), releases the key, so the form may
be sent again.

A send with no answer (Unavailable) may have been stored: POSTs are never retried. (A send that
failed on a read before any write stored nothing: its key is released, as for a refusal.) The
area's Recovery reads back the record the send would have made. Found: the key finishes there. Not
found: the key is released and the form says nothing was created (LostAnswer, created=False).
The read-back fails too: the key stays unknown and the form says so (created=None); the next
submit of that form looks again before it sends anything.

Not found is no proof while the upstream may still be storing the record: Bookdesk stopped
waiting for it (a read timeout) or a gateway did. Then the key stays unknown until SETTLE after
the send started; a submit before then looks again and sends nothing, one after sends again
if the record is still not there.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from flask import flash, g
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.errors import error_response
from app.store import idempotency
from app.templating import redirect_to
from app.upstream import RateLimited, Unavailable, ValidationError, current_stats
from app.upstream.errors import waited_for
from app.upstream.parallel import READS

# How long an upstream that timed out may still take to store what it was sent.
SETTLE = timedelta(seconds=60)
EXPIRED = _l("This form has expired. Reload the page and try again.")
NOTHING_SENT = _l("The accounting service is not available, so nothing was sent. Send the form "
                  "again in a moment.")
FOUND = _l("The accounting service did not confirm the request, but the record was created.")
NOT_CREATED = _l("The accounting service did not confirm the request, and nothing was created. It "
                 "is safe to send the form again.")
UNCONFIRMED = _l("The accounting service did not confirm the request, and it is not yet known "
                 "whether the record was created. Send the form again in a moment: Bookdesk checks "
                 "first and does not create it twice.")


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


class LostAnswer(Exception):
    """A send got no answer and no record was found: created False (safe to resend) or None
    (not yet known; the key stays unknown). str() is the message for above the form."""

    def __init__(self, message: str, created: bool | None) -> None:
        super().__init__(message)
        self.created = created


@dataclass(frozen=True)
class Recovery:
    """How an area finds what a send with a lost answer created, in its own words.

    find(since, known) reads the record back (since: when the send started, UTC) and gives
    its URL, or None when it is not there; Unavailable or RateLimited mean it could not look.
    known: where the API allows twins, the ids known() gives after a lost send: the twins the
    area noted just before its write went out, which are not what it made (kept with an
    unknown key for the next look). existing(exc) gives the URL of the record a refusal names
    (e.g. existing_income_id), when a resend is refused because the lost one landed.
    """

    find: Callable[[datetime, frozenset[int]], str | None]
    existing: Callable[[ValidationError], str | None] = lambda exc: None
    known: Callable[[], frozenset[int]] = frozenset
    found: Any = FOUND
    not_created: Any = NOT_CREATED
    unconfirmed: Any = UNCONFIRMED


def send_once(key: str, purpose: str, send: Callable[[], Sent], *,
              repeat: Callable[[idempotency.Claim], Any] | None = None,
              recover: Recovery | None = None):
    """Run send() unless this key was already used; return the response to give.

    A repeat gets repeat(claim) (default repeat_response). Exceptions from send propagate
    with the key released, as does a Sent without a url. With recover, a lost answer is read
    back (see the module docstring) and LostAnswer raised when no record is found.
    """
    try:
        claim = idempotency.claim_waiting(key, g.company_id, purpose)
    except idempotency.KeyMismatchError:
        raise ExpiredKey(key) from None
    if not claim.first:
        return (repeat or repeat_response)(claim)
    if claim.unknown and recover is not None:
        found = _look(key, recover, _since(claim.result), settling=_settling(claim.result),
                      known=_known(claim.result))
        if found is not None:
            return found
    return _send(key, send, recover, resend=claim.unknown)


def _send(key: str, send: Callable[[], Sent], recover: Recovery | None, resend: bool):
    """Send for a key this caller holds; finish, release or mark it unknown."""
    started, mark = datetime.now(UTC), len(current_stats().calls)
    try:
        sent = send()
    except Unavailable as exc:
        if not _wrote_since(mark):
            idempotency.fail(key)
            raise NothingSent(exc.message, status=exc.status, request_id=exc.request_id,
                              method=exc.method, path=exc.path) from exc
        if recover is None:
            idempotency.fail(key)
            raise
        return _look(key, recover, started, lost=True, settling=exc.may_still_run,
                     known=recover.known())
    except ValidationError as exc:
        url = recover.existing(exc) if recover is not None and resend else None
        if url is None:
            idempotency.fail(key)
            raise
        return _found(key, url, recover)
    except Exception:
        idempotency.fail(key)
        raise
    return _finish(key, sent)


class NothingSent(Unavailable):
    """A send failed on a read before any write: nothing was stored, the key is released."""


def _wrote_since(mark: int) -> bool:
    """Whether a write went out after the request's first `mark` calls: a send whose read
    failed before its write stored nothing, and has nothing to look for."""
    return any(call.method not in READS for call in current_stats().calls[mark:])


def _look(key: str, recover: Recovery, since: datetime, *, lost: bool = False,
          settling: bool = False, known: frozenset[int] = frozenset()):
    """Read back what a lost send made: a redirect to it, else None (resend) or LostAnswer.
    settling: the upstream may still be storing it, so not found keeps the key unknown."""
    note = {"sent_at": since.isoformat(), "settling": settling, "known": sorted(known)}
    url = _find(key, recover, since, note)
    if url is not None:
        return _found(key, url, recover)
    if settling and datetime.now(UTC) < since + SETTLE:
        idempotency.unknown(key, note)
        raise LostAnswer(str(recover.unconfirmed), None)
    if lost:
        idempotency.fail(key)
        raise LostAnswer(str(recover.not_created), False)
    return None


def _find(key: str, recover: Recovery, since: datetime, note: dict) -> str | None:
    """recover.find(since); when it cannot look, the key stays unknown with note."""
    try:
        return recover.find(since, frozenset(note["known"]))
    except (Unavailable, RateLimited):
        idempotency.unknown(key, note)
        raise LostAnswer(str(recover.unconfirmed), None) from None
    except Exception:
        # Signed out, refused, a bug: still unknown, and the next submit looks again.
        idempotency.unknown(key, note)
        raise


def _found(key: str, url: str, recover: Recovery):
    idempotency.finish(key, {"url": url})
    flash(str(recover.found), "success")
    return redirect_to(url)


def _finish(key: str, sent: Sent):
    if sent.url is None:
        idempotency.fail(key)
    else:
        idempotency.finish(key, {"url": sent.url})
    if sent.response is not None:
        return sent.response
    flash(sent.message, "success")
    return redirect_to(sent.url)


def _settling(note: Any) -> bool:
    """Whether the unknown key's lost send may still be stored by the upstream."""
    return isinstance(note, dict) and note.get("settling") is True


def _known(note: Any) -> frozenset[int]:
    """The ids that matched before the unknown key's lost send, from its note."""
    known = note.get("known") if isinstance(note, dict) else None
    return frozenset(known) if isinstance(known, list) else frozenset()


def _since(note: Any) -> datetime:
    """When the lost send started, from the unknown key's note (now when it is missing)."""
    try:
        return datetime.fromisoformat(note["sent_at"])
    except (TypeError, KeyError, ValueError):
        return datetime.now(UTC)


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
                message: Callable[[dict], str], recover: Recovery | None = None):
    """Send a form's create once (its key in form.form_key); None to re-render the form.

    An expired key, a lost answer with nothing found, a read failed before the write, or a
    rate limit (nothing sent) leaves a message on the form and sets form.lost_status (503 /
    429); upstream refusals propagate.
    """
    def sent() -> Sent:
        created = send()
        return Sent(target(created), message(created))

    try:
        return send_once(form.form_key.data, purpose, sent, recover=recover)
    except ExpiredKey:
        form.form_errors.append(str(EXPIRED))
    except LostAnswer as exc:
        form.form_errors.append(str(exc))
        form.lost_status = 503
    except NothingSent:
        form.form_errors.append(str(NOTHING_SENT))
        form.lost_status = 503
    except RateLimited as exc:
        form.form_errors.append(rate_limited_message(exc))
        form.lost_status = 429
    return None


def rate_limited_message(exc: RateLimited) -> str:
    """Nothing was sent: the upstream asked to wait; say how long."""
    seconds = max(waited_for(exc), 1)
    return _("The accounting service asked us to slow down, so nothing was created. Send the "
             "form again in %(seconds)s seconds.", seconds=seconds)
