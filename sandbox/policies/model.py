"""Which income policy set which field of an imported income (spec 4.9 issue: policy engine)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from sandbox.core.model import Base, utcnow


class IncomePolicyTrace(Base):
    """One row per field a policy set; field "matched" rows name every policy of a multi-match."""

    __tablename__ = "income_policy_trace"
    id: Mapped[int] = mapped_column(primary_key=True)
    income_id: Mapped[int] = mapped_column(ForeignKey("income.id", ondelete="CASCADE"),
                                           index=True)
    field: Mapped[str] = mapped_column(String(40))
    policy_name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
