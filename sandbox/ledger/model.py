"""Ledger numbers (chart of accounts entries) of a company."""
from __future__ import annotations

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base


class LedgerNumber(Base):
    __tablename__ = "ledger_number"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    code: Mapped[str | None] = mapped_column(String(40), nullable=True)
