"""Taxes and salary costs (spec 2.9, 2.10): monthly records with tags and a source."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from sandbox.catalog.model import Tag, tag_table
from sandbox.core.model import Base, Money, utcnow

MANUAL = "manual"
PAID_STATUSES = (1, 2, 3)  # not paid, paid, partially paid


tax_tag = tag_table("tax_tag", "tax")
tax_simple_tag = tag_table("tax_simple_tag", "tax")
salary_tag = tag_table("salary_tag", "salary")
salary_simple_tag = tag_table("salary_simple_tag", "salary")


class MonthlyCost:
    """Columns shared by taxes and salary costs."""

    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"))
    # The payment month, stored as its first day.
    month: Mapped[date] = mapped_column(Date)
    amount: Mapped[Decimal] = mapped_column(Money)
    paid_status: Mapped[int] = mapped_column(Integer, default=1)
    code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    account_number: Mapped[str | None] = mapped_column(String(40), nullable=True)
    source: Mapped[str] = mapped_column(String(40), default=MANUAL)
    description: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Live fields: the month the item belongs to (first day), when it falls due, the rate of
    # the company's currency (always 1 here: a currency cannot be sent) and the caller's own id.
    title: Mapped[date | None] = mapped_column(Date, nullable=True)
    due_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    exchange_rate: Mapped[Decimal] = mapped_column(Numeric(14, 6), default=Decimal(1))
    external_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    @property
    def synced(self) -> bool:
        """True for records an integration delivered (only their tags are editable)."""
        return self.source != MANUAL


class Tax(MonthlyCost, Base):
    __tablename__ = "tax"
    __table_args__ = (Index("ix_tax_company_month", "company_id", "month"),)
    tags: Mapped[list[Tag]] = relationship(secondary=tax_tag, order_by=Tag.id)
    simple_tags: Mapped[list[Tag]] = relationship(secondary=tax_simple_tag, order_by=Tag.id)


class Salary(MonthlyCost, Base):
    __tablename__ = "salary"
    __table_args__ = (
        Index("ix_salary_company_month", "company_id", "month"),
        # Spec part 8: one tax_number per month (salaries made through /1/ may have none).
        UniqueConstraint("company_id", "month", "tax_number", name="uq_salary_month_tax_number"),
    )
    tax_number: Mapped[str | None] = mapped_column(String(20), nullable=True)
    tags: Mapped[list[Tag]] = relationship(secondary=salary_tag, order_by=Tag.id)
    simple_tags: Mapped[list[Tag]] = relationship(secondary=salary_simple_tag, order_by=Tag.id)
