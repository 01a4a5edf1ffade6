"""Bookdesk's own records: one-time form keys, the review log and policy versions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

FORM_KEY_STATES = ("pending", "done", "failed")

# Explicit constraint names keep Alembic migrations identical on SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back as an aware UTC datetime."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        # SQLite keeps no zone: what it returns was stored as UTC.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base of the store's models."""

    metadata = MetaData(naming_convention=NAMING)


class FormKey(Base):
    """A one-time key that makes a create form's submit take effect at most once."""

    __tablename__ = "form_keys"
    __table_args__ = (
        CheckConstraint(
            "state IN ('pending', 'done', 'failed', 'unknown')", name="state"
        ),
        Index("ix_form_keys_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    purpose: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), default="pending")
    result: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ReviewAction(Base):
    """One review action on one or more incomes, with what undo needs to revert it."""

    __tablename__ = "review_actions"
    __table_args__ = (Index("ix_review_actions_company_id_id", "company_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    actor: Mapped[str] = mapped_column(String(200))
    actor_fp: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    income_ids: Mapped[list[int]] = mapped_column(JSON)
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    undone_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    undone_by_fp: Mapped[str | None] = mapped_column(String(16), nullable=True)


class PolicyVersion(Base):
    """A saved income-policy configuration; a null config records a deletion."""

    __tablename__ = "policy_versions"
    __table_args__ = (Index("ix_policy_versions_company_id_id", "company_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    config: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )
    actor: Mapped[str] = mapped_column(String(200))
    actor_fp: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
