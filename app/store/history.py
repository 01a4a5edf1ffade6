"""Who did what: actors (token fingerprints), the review action log, policy versions.

Who did something: the sign-in name plus a keyed fingerprint of the token, never the token.

Versions of a company's income-policy configuration, for history and restore.

The log of review actions: who did what to which incomes, and what undo must restore.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any, NamedTuple

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.store.db import PolicyVersion, ReviewAction, session_or_current, utcnow

FINGERPRINT_LENGTH = 16


class Actor(NamedTuple):
    """A user as the store records them: display name and token fingerprint."""

    name: str
    fp: str


def fingerprint(token: str, secret: str | bytes) -> str:
    """Return the first 16 hex chars of HMAC-SHA256(secret, token)."""
    key = secret.encode() if isinstance(secret, str) else secret
    if not key:
        raise ValueError("a secret key is required to fingerprint a token")
    digest = hmac.new(key, token.encode(), hashlib.sha256).hexdigest()
    return digest[:FINGERPRINT_LENGTH]


def actor_for(name: str, token: str, secret: str | bytes) -> Actor:
    """Build the Actor for a signed-in user from their name and token."""
    return Actor(name=name, fp=fingerprint(token, secret))




def add_version(
    company_id: int,
    config: dict[str, Any] | None,
    actor: Actor,
    *,
    note: str | None = None,
    session: Session | None = None,
) -> PolicyVersion:
    """Record a saved configuration; None records that it was deleted."""
    s = session_or_current(session)
    version = PolicyVersion(
        company_id=company_id, config=config, actor=actor.name, actor_fp=actor.fp, note=note
    )
    s.add(version)
    s.commit()
    return version


def list_versions(
    company_id: int, *, limit: int = 50, session: Session | None = None
) -> list[PolicyVersion]:
    """Return the company's versions, newest first."""
    stmt = (
        select(PolicyVersion)
        .where(PolicyVersion.company_id == company_id)
        .order_by(PolicyVersion.id.desc())
        .limit(limit)
    )
    return list(session_or_current(session).scalars(stmt))


def get_version(
    company_id: int, version_id: int, *, session: Session | None = None
) -> PolicyVersion | None:
    """Return one of the company's versions, or None (also for another company's id)."""
    stmt = select(PolicyVersion).where(
        PolicyVersion.company_id == company_id, PolicyVersion.id == version_id
    )
    return session_or_current(session).scalars(stmt).first()


def latest_version(company_id: int, *, session: Session | None = None) -> PolicyVersion | None:
    """Return the company's newest version, or None when it has none."""
    versions = list_versions(company_id, limit=1, session=session)
    return versions[0] if versions else None




# The kinds the review views write; the column takes any short name so new ones need no migration.
KINDS = ("done", "save_done", "skip", "bulk_done", "undo")


def record_action(
    company_id: int,
    actor: Actor,
    kind: str,
    income_ids: Iterable[int],
    before: dict[str, Any],
    after: dict[str, Any],
    *,
    numbers: dict[str, str] | None = None,
    session: Session | None = None,
) -> ReviewAction:
    """Log one review action; before/after map each income id (as a string) to its values,
    numbers to its invoice number as the reviewer saw it."""
    s = session_or_current(session)
    action = ReviewAction(
        company_id=company_id,
        actor=actor.name,
        actor_fp=actor.fp,
        kind=kind,
        income_ids=list(income_ids),
        before=before,
        after=after,
        numbers=numbers,
    )
    s.add(action)
    s.commit()
    return action


def recent_actions(
    company_id: int, *, limit: int = 50, session: Session | None = None
) -> list[ReviewAction]:
    """Return the company's latest actions, newest first."""
    stmt = (
        select(ReviewAction)
        .where(ReviewAction.company_id == company_id)
        .order_by(ReviewAction.id.desc())
        .limit(limit)
        .execution_options(populate_existing=True)
    )
    return list(session_or_current(session).scalars(stmt))


def get_action(
    company_id: int, action_id: int, *, session: Session | None = None
) -> ReviewAction | None:
    """Return one of the company's actions, or None (also for another company's id)."""
    stmt = (
        select(ReviewAction)
        .where(ReviewAction.company_id == company_id, ReviewAction.id == action_id)
        .execution_options(populate_existing=True)
    )
    return session_or_current(session).scalars(stmt).first()


def mark_undone(
    company_id: int, action_id: int, actor: Actor, *, session: Session | None = None
) -> bool:
    """Mark an action undone; False when it was already undone or is unknown."""
    s = session_or_current(session)
    # The undone_at IS NULL guard lets only one of two concurrent undos win.
    stmt = (
        update(ReviewAction)
        .where(ReviewAction.company_id == company_id, ReviewAction.id == action_id)
        .where(ReviewAction.undone_at.is_(None))
        .values(undone_at=utcnow(), undone_by=actor.name, undone_by_fp=actor.fp)
        .execution_options(synchronize_session=False)
    )
    count = s.execute(stmt).rowcount
    s.commit()
    return count == 1
