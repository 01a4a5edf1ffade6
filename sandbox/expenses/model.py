"""Expenses (spec 2.3): header, items, assignments, tags, artifact file and actions."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    JSON,
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

from sandbox.catalog.model import Currency, ExpenseType, Tag, VatCategory, tag_table
from sandbox.core.model import Base, Money, utcnow
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

PAID_STATUSES = {1: "not paid", 2: "paid", 3: "partially paid"}
MANUAL = "manual"

expense_tag = tag_table("expense_tag", "expense")
expense_simple_tag = tag_table("expense_simple_tag", "expense")
expense_assignment_tag = tag_table("expense_assignment_tag", "expense_assignment", "assignment_id")


class Expense(Base):
    __tablename__ = "expense"
    __table_args__ = (Index("ix_expense_company_updated", "company_id", "updated_at"),
                      Index("ix_expense_company_created", "company_id", "created_at"),
                      Index("ix_expense_company_total", "company_id", "total_gross"))
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("partner.id"), nullable=True)
    invoice_number: Mapped[str] = mapped_column(String(100), default="")
    filing_number: Mapped[str] = mapped_column(String(40), default="")
    issued_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    fulfilled_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    due_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    currency_id: Mapped[int] = mapped_column(ForeignKey("currency.id"))
    exchange_rate: Mapped[Decimal] = mapped_column(Numeric(14, 6), default=Decimal(1))
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    # Sum of the assignments' gross: the amount range filter reads it (top-level may be 0).
    total_gross: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    paid_status: Mapped[int] = mapped_column(Integer, default=1)
    payment_method: Mapped[str] = mapped_column(String(10), default="transfer")
    vat_area: Mapped[str] = mapped_column(String(3), default="HU")
    note: Mapped[str] = mapped_column(Text, default="")
    secondary_id: Mapped[str] = mapped_column(String(100), default="")
    processed: Mapped[bool] = mapped_column(Boolean, default=False)
    checked: Mapped[bool] = mapped_column(Boolean, default=False)
    booked: Mapped[bool] = mapped_column(Boolean, default=False)
    excluded_from_accounting: Mapped[bool] = mapped_column(Boolean, default=False)
    # Live-only states, changed by the bulk actions of /1/expenses/ (sandbox/expenses/bulk.py).
    approved: Mapped[bool] = mapped_column(Boolean, default=False)
    quarantined: Mapped[bool] = mapped_column(Boolean, default=False)
    exported_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    approved_by: Mapped[str | None] = mapped_column(String(100), nullable=True)
    # Live-only detail fields: the live service sends them, the spec does not name them.
    invoice_class: Mapped[int] = mapped_column(Integer, default=1)
    delivered_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    exchange_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    planned_payment_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    accounting_period_start: Mapped[date | None] = mapped_column(Date, nullable=True)
    accounting_period_end: Mapped[date | None] = mapped_column(Date, nullable=True)
    integration_payment_method: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # When a user first opened the expense in the live web app; null while it is new.
    user_saw: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    accounting_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    vat_period_type: Mapped[str | None] = mapped_column(String(10), nullable=True)
    vat_period_started_at: Mapped[date | None] = mapped_column(Date, nullable=True)
    # The accountant's to-do note on the expense (sandbox controls set it; filters read it).
    accounting_todo: Mapped[str] = mapped_column(Text, default="")
    accounting_todo_done: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(String(40), default=MANUAL)
    custom_fields: Mapped[dict] = mapped_column(JSON, default=dict)
    # Casefolded custom field values, invoice number: what `search` looks at besides partners.
    search_text: Mapped[str] = mapped_column(Text, default="")
    artifact_filename: Mapped[str | None] = mapped_column(String(255), nullable=True)
    artifact_extension: Mapped[str | None] = mapped_column(String(10), nullable=True)
    artifact_created_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                                 nullable=True)

    partner: Mapped[Partner | None] = relationship()
    currency: Mapped[Currency] = relationship()
    tags: Mapped[list[Tag]] = relationship(secondary=expense_tag, order_by=Tag.id)
    simple_tags: Mapped[list[Tag]] = relationship(secondary=expense_simple_tag, order_by=Tag.id)
    assignments: Mapped[list[ExpenseAssignment]] = relationship(
        back_populates="expense", cascade="all, delete-orphan", order_by="ExpenseAssignment.id")
    items: Mapped[list[ExpenseItem]] = relationship(
        cascade="all, delete-orphan", order_by="ExpenseItem.id")
    actions: Mapped[list[ExpenseAction]] = relationship(
        cascade="all, delete-orphan", order_by="ExpenseAction.id")
    file: Mapped[ExpenseFile | None] = relationship(cascade="all, delete-orphan", lazy="select")

    @property
    def has_artifact(self) -> bool:
        """True when a file is attached."""
        return self.artifact_filename is not None

    @property
    def is_synced(self) -> bool:
        """True when the expense came from an integration rather than by hand."""
        return self.source != MANUAL

    @property
    def incomplete(self) -> bool:
        """True while the expense lacks what booking needs: a partner, a date or an amount."""
        return self.partner_id is None or self.issued_at is None or not self.assignments

    @property
    def accounting_status(self) -> str:
        """One word for the furthest accounting state reached."""
        for flag in ("excluded_from_accounting", "booked", "checked", "processed"):
            if getattr(self, flag):
                return "excluded" if flag == "excluded_from_accounting" else flag
        return "unprocessed"

    def refresh_derived(self) -> None:
        """Recompute the columns filters read: the assignments' gross total and search text."""
        self.total_gross = sum((a.gross_amount or Decimal(0) for a in self.assignments),
                               Decimal(0))
        values = [str(v) for v in (self.custom_fields or {}).values()]
        self.search_text = "\n".join([self.invoice_number or "", *values]).casefold()


class ExpenseAssignment(Base):
    __tablename__ = "expense_assignment"
    id: Mapped[int] = mapped_column(primary_key=True)
    expense_id: Mapped[int] = mapped_column(ForeignKey("expense.id", ondelete="CASCADE"),
                                            index=True)
    expense_type_id: Mapped[int | None] = mapped_column(ForeignKey("expense_type.id"))
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_id: Mapped[int | None] = mapped_column(ForeignKey("vat_category.id"), nullable=True)
    job_number: Mapped[str] = mapped_column(String(60), default="")
    ledger_number_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_number.id"),
                                                         nullable=True)
    vat_ledger_number_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_number.id"),
                                                             nullable=True)
    company_vat_category_id: Mapped[int | None] = mapped_column(ForeignKey("vat_category.id"),
                                                                nullable=True)

    expense: Mapped[Expense] = relationship(back_populates="assignments")
    expense_type: Mapped[ExpenseType | None] = relationship()
    vat: Mapped[VatCategory | None] = relationship(foreign_keys=[vat_id])
    tags: Mapped[list[Tag]] = relationship(secondary=expense_assignment_tag, order_by=Tag.id)
    ledger_number: Mapped[LedgerNumber | None] = relationship(foreign_keys=[ledger_number_id])
    vat_ledger_number: Mapped[LedgerNumber | None] = relationship(
        foreign_keys=[vat_ledger_number_id])
    company_vat_category: Mapped[VatCategory | None] = relationship(
        foreign_keys=[company_vat_category_id])


class ExpenseItem(Base):
    __tablename__ = "expense_item"
    id: Mapped[int] = mapped_column(primary_key=True)
    expense_id: Mapped[int] = mapped_column(ForeignKey("expense.id", ondelete="CASCADE"),
                                            index=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    quantity: Mapped[Decimal] = mapped_column(Numeric(14, 4), default=Decimal(1))
    unit: Mapped[str] = mapped_column(String(20), default="db")
    unit_price: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    net_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    vat_percent: Mapped[float] = mapped_column(Float, default=27.0)
    vat_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    gross_amount: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))


class ExpenseAction(Base):
    """An action taken on an expense (spec 3: excluding from accounting creates one)."""

    __tablename__ = "expense_action"
    id: Mapped[int] = mapped_column(primary_key=True)
    expense_id: Mapped[int] = mapped_column(ForeignKey("expense.id", ondelete="CASCADE"),
                                            index=True)
    type: Mapped[str] = mapped_column(String(40))
    user_name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ExpenseFile(Base):
    """The artifact's bytes, kept apart so list queries never load them."""

    __tablename__ = "expense_file"
    expense_id: Mapped[int] = mapped_column(ForeignKey("expense.id", ondelete="CASCADE"),
                                            primary_key=True)
    content_type: Mapped[str] = mapped_column(String(100), default="application/octet-stream")
    data: Mapped[bytes] = mapped_column(LargeBinary)
