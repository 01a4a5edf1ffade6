"""Catalogue records: tags, expense and revenue types, VAT categories and currencies."""
from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base


class NamedEntry:
    """The columns tags, revenue types and expense types share: a company's named entry,
    is_external when an integration made it."""

    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    is_external: Mapped[bool] = mapped_column(Boolean, default=False)


class Tag(NamedEntry, Base):
    __tablename__ = "tag"


def tag_table(name: str, owner: str, key: str | None = None) -> Table:
    """The link table between the rows of table `owner` (column `key`, "<owner>_id" by
    default) and their tags; removing the owner removes its links."""
    # A plain tag_id column with a foreign key: tag deletion finds every reference by it.
    return Table(name, Base.metadata,
                 Column(key or f"{owner}_id", ForeignKey(f"{owner}.id", ondelete="CASCADE"),
                        primary_key=True),
                 Column("tag_id", ForeignKey("tag.id"), primary_key=True, index=True))


class RevenueType(NamedEntry, Base):
    __tablename__ = "revenue_type"


class ExpenseType(NamedEntry, Base):
    __tablename__ = "expense_type"


class VatCategory(Base):
    __tablename__ = "vat_category"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    percent: Mapped[float] = mapped_column(Float, default=27.0)
    vat_area: Mapped[str] = mapped_column(String(3), default="HU")
    country: Mapped[str] = mapped_column(String(2), default="HU")
    type: Mapped[str] = mapped_column(String(10), default="cost")


class Currency(Base):
    __tablename__ = "currency"
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(3), unique=True)
    name: Mapped[str] = mapped_column(String(60), default="")
