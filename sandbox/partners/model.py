"""Partners: the customers and vendors of a company."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base, utcnow


class Partner(Base):
    __tablename__ = "partner"
    __table_args__ = (UniqueConstraint("company_id", "name", "tax_number", name="uq_partner"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    tax_number: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    eu_tax_number: Mapped[str | None] = mapped_column(String(40), nullable=True)
    zip_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    city: Mapped[str | None] = mapped_column(String(100), nullable=True)
    address: Mapped[str | None] = mapped_column(String(200), nullable=True)
    country: Mapped[str | None] = mapped_column(String(2), nullable=True)
    email: Mapped[str | None] = mapped_column(String(200), nullable=True)
    phone: Mapped[str | None] = mapped_column(String(50), nullable=True)
    is_customer: Mapped[bool] = mapped_column(Boolean, default=False)
    is_vendor: Mapped[bool] = mapped_column(Boolean, default=False)
    default_account_number: Mapped[str | None] = mapped_column(String(60), nullable=True)
    default_account_name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # Partners synced from an integration only accept the restricted update set (spec 4.4 rule 3).
    source: Mapped[str] = mapped_column(String(40), default="manual")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1)
