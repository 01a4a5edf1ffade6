"""One-time form keys: a double submit creates once, and a failed create may be retried.

A create form carries new_key(). On submit the view calls claim() (or claim_waiting(), which lets
a repeat wait for the first): only the caller that gets first=True performs the create, then
calls finish() with where to redirect, or fail() so the same form can be sent again. A create
whose answer was lost is marked unknown() (it may or may not have been stored): the next claim
hands the key over with state "unknown", so that caller looks for the record before sending
again. Every function here commits its own small transaction.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.store.db import FormKey, session_or_current, utcnow

KEY_TTL = timedelta(days=1)
_CLAIM_ATTEMPTS = 3


@dataclass(frozen=True)
class Claim:
    """The outcome of claiming a key; first=True means this caller must do the work."""

    first: bool
    state: str
    result: Any = None

    @property
    def pending(self) -> bool:
        """Tell whether an earlier submit with this key is still being processed."""
        return self.state == "pending"

    @property
    def unknown(self) -> bool:
        """Tell whether this caller took over a key whose earlier send has no known outcome."""
        return self.state == "unknown"

    @property
    def done(self) -> bool:
        """Tell whether an earlier submit finished; result says where it led."""
        return self.state == "done"


class KeyMismatchError(Exception):
    """The key was issued for another company or another form."""


def new_key() -> str:
    """Return a fresh random key for one rendering of a form."""
    return secrets.token_urlsafe(32)


def claim(key: str, company_id: int, purpose: str, *, session: Session | None = None) -> Claim:
    """Atomically claim key: exactly one concurrent caller gets first=True."""
    s = session_or_current(session)
    # A purge may delete the row, or its holder release it, between our writes and our read;
    # then simply try again.
    for _ in range(_CLAIM_ATTEMPTS):
        if _insert(s, key, company_id, purpose) or _reclaim(s, key, company_id, purpose, "failed"):
            return Claim(first=True, state="pending")
        if _reclaim(s, key, company_id, purpose, "unknown"):
            # The winner now holds the key (pending); what unknown() kept is still on the row.
            result = s.execute(select(FormKey.result).where(FormKey.key == key)).scalar()
            return Claim(first=True, state="unknown", result=result)
        row = s.execute(
            select(FormKey.company_id, FormKey.purpose, FormKey.state, FormKey.result)
            .where(FormKey.key == key)
        ).first()
        if row is not None:
            if (row.company_id, row.purpose) != (company_id, purpose):
                raise KeyMismatchError(key)
            if row.state in ("failed", "unknown"):
                continue  # released after our reclaim was tried: try to take it again
            return Claim(first=False, state=row.state, result=row.result)
    raise RuntimeError(f"could not claim form key after {_CLAIM_ATTEMPTS} attempts")


def claim_waiting(
    key: str, company_id: int, purpose: str, *, timeout: float = 10.0, step: float = 0.2,
    session: Session | None = None,
) -> Claim:
    """Claim key; a repeat waits up to timeout seconds while the first is still pending."""
    found = claim(key, company_id, purpose, session=session)
    deadline = time.monotonic() + timeout
    # The first may fail meanwhile: the next claim then hands the key to this caller.
    while found.pending and not found.first and time.monotonic() < deadline:
        time.sleep(step)
        found = claim(key, company_id, purpose, session=session)
    return found


def _insert(s: Session, key: str, company_id: int, purpose: str) -> bool:
    try:
        s.execute(insert(FormKey).values(key=key, company_id=company_id, purpose=purpose))
        s.commit()
    except IntegrityError:
        s.rollback()
        return False
    return True


def _reclaim(s: Session, key: str, company_id: int, purpose: str, state: str) -> bool:
    values = {"state": "pending", "created_at": utcnow()}
    if state == "failed":
        values["result"] = None
    stmt = (
        update(FormKey)
        .where(FormKey.key == key, FormKey.state == state)
        .where(FormKey.company_id == company_id, FormKey.purpose == purpose)
        .values(**values)
    )
    return _commit_rowcount(s, stmt) == 1


def finish(key: str, result: Any, *, session: Session | None = None) -> bool:
    """Mark a pending key done with result (e.g. the created record's id and URL)."""
    stmt = (
        update(FormKey)
        .where(FormKey.key == key, FormKey.state == "pending")
        .values(state="done", result=result)
    )
    return _commit_rowcount(session_or_current(session), stmt) == 1


def fail(key: str, *, session: Session | None = None) -> bool:
    """Mark a pending key failed, so the same form may be submitted again."""
    stmt = (
        update(FormKey)
        .where(FormKey.key == key, FormKey.state == "pending")
        .values(state="failed", result=None)
    )
    return _commit_rowcount(session_or_current(session), stmt) == 1


def unknown(key: str, note: Any = None, *, session: Session | None = None) -> bool:
    """Mark a pending key unknown: sent, answer lost; note is what a later look-up needs."""
    stmt = (
        update(FormKey)
        .where(FormKey.key == key, FormKey.state == "pending")
        .values(state="unknown", result=note)
    )
    return _commit_rowcount(session_or_current(session), stmt) == 1


def purge_expired(
    *, now: datetime | None = None, ttl: timedelta = KEY_TTL, session: Session | None = None
) -> int:
    """Delete keys older than ttl (a day); return how many went."""
    cutoff = (now or utcnow()) - ttl
    stmt = delete(FormKey).where(FormKey.created_at < cutoff)
    return _commit_rowcount(session_or_current(session), stmt)


def _commit_rowcount(s: Session, stmt: Any) -> int:
    count = s.execute(stmt.execution_options(synchronize_session=False)).rowcount
    s.commit()
    return count
