"""Versions of a company's income-policy configuration, for history and restore."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.store.db import session_or_current
from app.store.identity import Actor
from app.store.models import PolicyVersion


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
