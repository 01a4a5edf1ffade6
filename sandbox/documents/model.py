"""Documents (spec 2.11): files a company received, attached to an expense or income or not."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, deferred, mapped_column

from sandbox.core.model import Base, utcnow

ATTACHABLE = ("expense", "income")


class Document(Base):
    __tablename__ = "document"
    __table_args__ = (Index("ix_document_company_attached", "company_id", "is_attached", "id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    filename: Mapped[str] = mapped_column(String(200))
    extension: Mapped[str] = mapped_column(String(10))
    size: Mapped[int] = mapped_column(Integer, default=0)
    is_attached: Mapped[bool] = mapped_column(Boolean, default=False)
    # No foreign key: the record it is attached to lives in another area's table.
    attached_to_type: Mapped[str | None] = mapped_column(String(10), nullable=True)
    attached_to_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    content: Mapped[bytes] = deferred(mapped_column(LargeBinary))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
