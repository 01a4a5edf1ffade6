"""Companies and their API tokens."""
from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from sandbox.catalog.model import Currency
from sandbox.core.model import Base, utcnow

ROLES = ("admin", "bookkeeper", "viewer")


def hash_token(token: str) -> str:
    """Tokens are stored as SHA-256 hex digests, never in clear."""
    return hashlib.sha256(token.encode()).hexdigest()


class Company(Base):
    __tablename__ = "company"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    tax_account_number: Mapped[str] = mapped_column(String(40), default="")
    default_currency_id: Mapped[int] = mapped_column(ForeignKey("currency.id"))
    expense_email: Mapped[str] = mapped_column(String(200), default="")
    document_email: Mapped[str] = mapped_column(String(200), default="")
    advanced_accounting: Mapped[bool] = mapped_column(Boolean, default=False)
    enable_accounting_id: Mapped[bool] = mapped_column(Boolean, default=False)
    enable_vat_period: Mapped[bool] = mapped_column(Boolean, default=False)
    requires_2fa: Mapped[bool] = mapped_column(Boolean, default=False)
    income_policies: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    default_currency: Mapped[Currency] = relationship(lazy="joined")


class ApiToken(Base):
    __tablename__ = "api_token"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    role: Mapped[str] = mapped_column(String(20), default="admin")
    user_name: Mapped[str] = mapped_column(String(100), default="")
    user_has_2fa: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    company: Mapped[Company] = relationship(lazy="joined")
