"""Audit exports uploaded by POST /2/audit-xml/: one row per file, with what it created."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base, utcnow


class AuditXml(Base):
    __tablename__ = "audit_xml"
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    filename: Mapped[str] = mapped_column(String(255))
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    invoice_count: Mapped[int] = mapped_column(Integer, default=0)
    # Incomes the file created; invoices already imported from an earlier export are skipped.
    income_ids: Mapped[list] = mapped_column(JSON, default=list)
    user_name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    data: Mapped[bytes] = mapped_column(LargeBinary)
