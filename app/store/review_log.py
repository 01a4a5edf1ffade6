"""The log of review actions: who did what to which incomes, and what undo must restore."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.store.db import session_or_current
from app.store.identity import Actor
from app.store.models import ReviewAction, utcnow

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
    session: Session | None = None,
) -> ReviewAction:
    """Log one review action; before/after map each income id (as a string) to its values."""
    s = session_or_current(session)
    action = ReviewAction(
        company_id=company_id,
        actor=actor.name,
        actor_fp=actor.fp,
        kind=kind,
        income_ids=list(income_ids),
        before=before,
        after=after,
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
