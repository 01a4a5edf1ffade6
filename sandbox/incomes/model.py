"""Incomes (spec 2.2): header, assignments, items, payments, tag links and the invoice image."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from sandbox.catalog.model import tag_table
from sandbox.core.model import Base, Money, utcnow

INCOME_TYPES = (1, 2, 6, 7)
MANUAL_SOURCES = ("manual", "api")

income_tag = tag_table("income_tag", "income")
income_simple_tag = tag_table("income_simple_tag", "income")
assignment_tag = tag_table("income_assignment_tag", "income_assignment", "assignment_id")


class Income(Base):
    __tablename__ = "income"
    __table_args__ = (
        Index("ix_income_company_issued", "company_id", "issued_at", "id"),
        Index("ix_income_company_fulfilled", "company_id", "fulfilled_at", "id"),
        Index("ix_income_company_due", "company_id", "due_at", "id"),
        Index("ix_income_company_number", "company_id", "invoice_number"),
        Index("ix_income_company_review", "company_id", "needs_review", "review_done"),
        Index("ix_income_company_partner", "company_id", "partner_id"),
        Index("ix_income_company_created", "company_id", "created_at", "id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"))
    type: Mapped[int] = mapped_column(Integer, default=2)
    invoice_type: Mapped[int] = mapped_column(Integer, default=0)
    invoice_number: Mapped[str] = mapped_column(String(100))
    referred_invoice_number: Mapped[str | None] = mapped_column(String(64), nullable=True)
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("partner.id"), nullable=True)
    partner_name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    partner_zip_code: Mapped[str | None] = mapped_column(String(20), nullable=True)
    partner_city: Mapped[str | None] = mapped_column(String(100), nullable=True)
    partner_address: Mapped[str | None] = mapped_column(String(200), nullable=True)
    partner_country: Mapped[str | None] = mapped_column(String(2), nullable=True)
    partner_tax_number: Mapped[str | None] = mapped_column(String(40), nullable=True)
    partner_account_number: Mapped[str | None] = mapped_column(String(60), nullable=True)
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    currency_id: Mapped[int] = mapped_column(ForeignKey("currency.id"))
    exchange_rate: Mapped[Decimal] = mapped_column(Numeric(16, 6), default=Decimal(1))
    exchange_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    fulfilled_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    issued_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    due_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    payment_method: Mapped[str | None] = mapped_column(String(20), nullable=True)
    planned_payment_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    paid_through: Mapped[str | None] = mapped_column(String(100), nullable=True)
    vat_area: Mapped[str] = mapped_column(String(3), default="HU")
    secondary_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    is_cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    needs_review: Mapped[bool] = mapped_column(Boolean, default=False)
    review_done: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    ledger_number_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_number.id"),
                                                         nullable=True)
    accounting_period_start: Mapped[date | None] = mapped_column(Date, nullable=True)
    accounting_period_end: Mapped[date | None] = mapped_column(Date, nullable=True)
    accounting_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    vat_period_type: Mapped[str | None] = mapped_column(String(10), nullable=True)
    vat_period_started_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    # Processing state drives editable_fields; source != manual/api means synced from integration.
    is_processed: Mapped[bool] = mapped_column(Boolean, default=False)
    is_booked: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(String(40), default="manual")
    # Live-only keys: how the integration named the payment method, and when a user of the
    # company first opened the income in the web app (the API itself never sets it).
    integration_payment_method: Mapped[str | None] = mapped_column(String(60), nullable=True)
    user_saw: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Denormalised from payments so the list can filter on it through an index.
    paid_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    paid_status: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1)

    assignments: Mapped[list[IncomeAssignment]] = relationship(
        order_by="IncomeAssignment.position", cascade="all, delete-orphan")
    items: Mapped[list[IncomeItem]] = relationship(
        order_by="IncomeItem.position", cascade="all, delete-orphan")
    payments: Mapped[list[IncomePayment]] = relationship(
        order_by="IncomePayment.id", cascade="all, delete-orphan")
    tags = relationship("Tag", secondary=income_tag, order_by="Tag.id")
    simple_tags = relationship("Tag", secondary=income_simple_tag, order_by="Tag.id")
    artifact: Mapped[IncomeArtifact | None] = relationship(cascade="all, delete-orphan")

    @property
    def synced(self) -> bool:
        """True for incomes that came from an invoicing integration or the tax authority."""
        return self.source not in MANUAL_SOURCES


class IncomeAssignment(Base):
    __tablename__ = "income_assignment"
    id: Mapped[int] = mapped_column(primary_key=True)
    income_id: Mapped[int] = mapped_column(ForeignKey("income.id", ondelete="CASCADE"),
                                           index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    revenue_type_id: Mapped[int | None] = mapped_column(ForeignKey("revenue_type.id"),
                                                        nullable=True)
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_id: Mapped[int | None] = mapped_column(ForeignKey("vat_category.id"), nullable=True)
    job_number: Mapped[str | None] = mapped_column(String(60), nullable=True)
    ledger_number_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_number.id"),
                                                         nullable=True)
    vat_ledger_number_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_number.id"),
                                                             nullable=True)
    company_vat_category_id: Mapped[int | None] = mapped_column(ForeignKey("vat_category.id"),
                                                                nullable=True)
    tags = relationship("Tag", secondary=assignment_tag, order_by="Tag.id")


class IncomeItem(Base):
    __tablename__ = "income_item"
    id: Mapped[int] = mapped_column(primary_key=True)
    income_id: Mapped[int] = mapped_column(ForeignKey("income.id", ondelete="CASCADE"),
                                           index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(200))
    quantity: Mapped[Decimal] = mapped_column(Numeric(14, 4), default=Decimal(1))
    unit: Mapped[str | None] = mapped_column(String(20), nullable=True)
    unit_price: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_percent: Mapped[float] = mapped_column(Float, default=27.0)


class IncomePayment(Base):
    __tablename__ = "income_payment"
    id: Mapped[int] = mapped_column(primary_key=True)
    income_id: Mapped[int] = mapped_column(ForeignKey("income.id", ondelete="CASCADE"),
                                           index=True)
    paid_at: Mapped[date] = mapped_column(Date)
    amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    method: Mapped[str | None] = mapped_column(String(20), nullable=True)


class IncomeArtifact(Base):
    """The invoice image sent with a create (read by /1/artifacts/income/)."""

    __tablename__ = "income_artifact"
    id: Mapped[int] = mapped_column(primary_key=True)
    income_id: Mapped[int] = mapped_column(ForeignKey("income.id", ondelete="CASCADE"),
                                           unique=True)
    filename: Mapped[str] = mapped_column(String(200))
    extension: Mapped[str] = mapped_column(String(10))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
