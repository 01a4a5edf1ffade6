"""Resolving the names policies give for revenue types, tags and ledger numbers to ids."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.policies import LEDGER_NUMBERS, REVENUE_TYPES, TAGS

from .models import Company, LedgerNumber, RevenueType, Tag

MODELS = {REVENUE_TYPES: RevenueType, TAGS: Tag, LEDGER_NUMBERS: LedgerNumber}


class Resolver:
    """resolve(kind, name) -> id for app.policies.apply_names: finds by name, else creates."""

    def __init__(self, session: Session, company: Company):
        self.session, self.company = session, company
        self.created: dict[str, list[dict]] = {}

    def __call__(self, kind: str, name: str) -> int:
        """The id of the company's record of kind called name (any case), created if missing."""
        model = MODELS[kind]
        row = self._find(model, name)
        if row is None:
            row = self._create(model, name.strip())
            self.created.setdefault(kind, []).append({"id": row.id, "name": row.name})
        return row.id

    def _find(self, model, name: str):
        wanted = name.strip().casefold()
        rows = self.session.scalars(select(model).where(
            model.company_id == self.company.id).order_by(model.id))
        for row in rows:
            # A ledger number may be named by its code ("911") as well as by its name.
            if row.name.strip().casefold() == wanted or getattr(row, "code", None) == wanted:
                return row
        return None

    def _create(self, model, name: str):
        extra = {} if model is LedgerNumber else {"is_external": False}
        row = model(company_id=self.company.id, name=name, **extra)
        self.session.add(row)
        self.session.flush()
        return row
