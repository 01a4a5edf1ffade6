"""Bank accounts, one payment record per account and day, and its transactions (live only)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Date, DateTime, ForeignKey, Numeric, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from sandbox.catalog.model import Currency
from sandbox.core.model import Base, Money, utcnow


class BankAccount(Base):
    """A company's bank account; its balance is the opening balance less what was paid."""

    __tablename__ = "bank_account"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    account_number: Mapped[str] = mapped_column(String(60))
    currency_id: Mapped[int] = mapped_column(ForeignKey("currency.id"))
    opening_balance: Mapped[Decimal] = mapped_column(Money, default=Decimal(0))
    # The bank's book rate into the company's currency: what the pulse summary adds up with.
    book_rate: Mapped[Decimal] = mapped_column(Numeric(14, 4), default=Decimal(1))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    currency: Mapped[Currency] = relationship()


class BankPayment(Base):
    """What left one account on one day: the /1/payments record."""

    __tablename__ = "bank_payment"
    __table_args__ = (UniqueConstraint("account_id", "date"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("bank_account.id"), index=True)
    date: Mapped[date] = mapped_column(Date)

    account: Mapped[BankAccount] = relationship()
    transactions: Mapped[list[BankTransaction]] = relationship(
        back_populates="payment", cascade="all, delete-orphan", order_by="BankTransaction.id")


class BankTransaction(Base):
    """One transfer paying (part of) an expense, amount in the expense's currency; or one the
    bookkeeping has not matched to any expense yet (no expense_id: a bank fee, a transfer)."""

    __tablename__ = "bank_transaction"
    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(ForeignKey("bank_payment.id", ondelete="CASCADE"),
                                            index=True)
    expense_id: Mapped[int | None] = mapped_column(
        ForeignKey("expense.id", ondelete="CASCADE"), index=True, nullable=True)
    amount: Mapped[Decimal] = mapped_column(Money)
    # The same amount in the account's currency: what the balance is reduced by.
    account_amount: Mapped[Decimal] = mapped_column(Money)
    currency_id: Mapped[int] = mapped_column(ForeignKey("currency.id"))
    exchange_rate: Mapped[Decimal] = mapped_column(Numeric(14, 6), default=Decimal(1))
    # Snapshots as the bank statement printed them; later edits of the expense do not move them.
    partner: Mapped[str] = mapped_column(String(200), default="")
    invoice_number: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    payment: Mapped[BankPayment] = relationship(back_populates="transactions")
    currency: Mapped[Currency] = relationship()
