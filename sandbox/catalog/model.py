"""Catalogue records: tags, expense and revenue types, VAT categories and currencies."""
from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base


class Tag(Base):
    __tablename__ = "tag"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    is_external: Mapped[bool] = mapped_column(Boolean, default=False)


class RevenueType(Base):
    __tablename__ = "revenue_type"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    is_external: Mapped[bool] = mapped_column(Boolean, default=False)


class ExpenseType(Base):
    __tablename__ = "expense_type"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    is_external: Mapped[bool] = mapped_column(Boolean, default=False)


class VatCategory(Base):
    __tablename__ = "vat_category"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    percent: Mapped[float] = mapped_column(Float, default=27.0)
    vat_area: Mapped[str] = mapped_column(String(3), default="HU")
    country: Mapped[str] = mapped_column(String(2), default="HU")
    type: Mapped[str] = mapped_column(String(10), default="cost")


class Currency(Base):
    __tablename__ = "currency"
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(3), unique=True)
    name: Mapped[str] = mapped_column(String(60), default="")
