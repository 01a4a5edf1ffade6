"""Documents (spec 2.11): files a company received, attached to an expense or income or not."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, deferred, mapped_column, relationship

from sandbox.catalog.model import Tag, tag_table
from sandbox.core.model import Base, utcnow

ATTACHABLE = ("expense", "income")


document_simple_tag = tag_table("document_simple_tag", "document")


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
    # The live descriptive fields (GET /2/documents/<id>/, POST /2/documents/update/<id>/).
    title: Mapped[str] = mapped_column(String(200), default="")
    summary: Mapped[str] = mapped_column(Text, default="")
    document_type_id: Mapped[int | None] = mapped_column(ForeignKey("document_type.id"),
                                                         nullable=True)
    keywords: Mapped[list] = mapped_column(JSON, default=list)
    sender: Mapped[str] = mapped_column(String(200), default="")
    recipient: Mapped[str] = mapped_column(String(200), default="")
    contains_payable: Mapped[bool] = mapped_column(Boolean, default=False)
    # Live filter states: new until first edited, updated once edited, filed by a user.
    is_new: Mapped[bool] = mapped_column(Boolean, default=True)
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    is_filed: Mapped[bool] = mapped_column(Boolean, default=False)
    is_ai_recognition_allowed: Mapped[bool] = mapped_column(Boolean, default=True)
    origin: Mapped[str] = mapped_column(String(40), default="email")

    simple_tags: Mapped[list[Tag]] = relationship(secondary=document_simple_tag,
                                                  order_by=Tag.id)

    @property
    def is_updated(self) -> bool:
        """True once the document was edited after it arrived."""
        return self.updated_at is not None


class DocumentType(Base):
    """The service-wide catalogue of document kinds (/2/document-types/)."""

    __tablename__ = "document_type"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)


DOCUMENT_TYPES = ("Számla", "Szerződés", "Bankszámlakivonat", "Teljesítési igazolás", "Nyugta",
                  "Egyéb")


def seed_document_types(session) -> None:
    """Create the document-type catalogue once per database."""
    if session.query(DocumentType).count() == 0:
        session.add_all([DocumentType(name=name) for name in DOCUMENT_TYPES])
        session.flush()
