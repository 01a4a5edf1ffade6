"""Demo documents: about thirty small PDF and PNG files, some attached to expenses or incomes."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.company.model import Company
from sandbox.core.demo_files import minimal_pdf, minimal_png
from sandbox.core.model import Base
from sandbox.documents.model import Document

COUNT = {1: 24, 2: 6}
NAMES = ("szamla_{n:04d}.pdf", "nyugta_{n:04d}.png", "bankszamlakivonat_{n:02d}.pdf",
         "teljesitesi_igazolas_{n:03d}.pdf", "berleti_szerzodes_{n}.pdf", "fotozott_blokk_{n}.png")
COLOURS = ((40, 90, 160), (200, 120, 30), (30, 140, 90), (150, 40, 80))


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Add demo documents; about half are attached to the company's expenses or incomes."""
    now = datetime.now(UTC)
    for number, company in companies.items():
        targets = _targets(session, company.id)
        docs = [_document(company, rng, now, n, targets) for n in range(COUNT.get(number, 0))]
        # Ids grow with arrival time, as on the live service.
        session.add_all(sorted(docs, key=lambda d: d.created_at))
    session.flush()


def _document(company: Company, rng: random.Random, now: datetime, n: int,
              targets: list) -> Document:
    filename = rng.choice(NAMES).format(n=n + 1)
    content = minimal_png(24, 32, rng.choice(COLOURS)) if filename.endswith(".png") else \
        minimal_pdf([company.name, filename, f"Demo dokumentum #{n + 1}"])
    age = timedelta(days=rng.randint(0, 90), minutes=rng.randint(0, 1440))
    doc = Document(company_id=company.id, filename=filename, created_at=now - age,
                   extension=filename.rsplit(".", 1)[1], size=len(content), content=content)
    if targets and rng.random() < 0.5:
        doc.is_attached = True
        doc.attached_to_type, doc.attached_to_id = rng.choice(targets)
    return doc


def _targets(session: Session, company_id: int) -> list[tuple[str, int]]:
    """(kind, id) of the company's expenses and incomes, when those areas exist."""
    found = []
    for kind in ("expense", "income"):
        table = Base.metadata.tables.get(kind)
        if table is not None:
            ids = session.scalars(select(table.c.id).where(table.c.company_id == company_id)
                                  .order_by(table.c.id).limit(200))
            found += [(kind, i) for i in ids]
    return found
