"""Data for the sandbox scale benchmark: one company, its partners and bulk incomes."""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from sqlalchemy import insert
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency
from sandbox.catalog.seed import seed_company_basics
from sandbox.company.model import ApiToken, Company, hash_token
from sandbox.incomes.bulk import IncomeWriter
from sandbox.incomes.demo import load_ctx
from sandbox.incomes.seed import random_income
from sandbox.partners.model import Partner
from sandbox.partners.seed import partner_rows

TOKEN = "bench-admin"
SPAN_DAYS = 3 * 365
CHUNK = 10_000


@dataclass
class BenchData:
    """What scenarios need to build their requests."""

    company: Company
    today: date
    span_days: int = SPAN_DAYS
    incomes: int = 0
    partners: int = 0


def build_company(session: Session, rng: random.Random) -> BenchData:
    """A company with the standard catalogue, demo-style partners and an admin token."""
    huf = session.query(Currency).filter_by(code="HUF").one()
    company = Company(name="Skála Kft.", tax_account_number="12345676-2-42",
                      default_currency=huf, advanced_accounting=True)
    session.add(company)
    session.flush()
    seed_company_basics(session, company)
    session.add(ApiToken(token_hash=hash_token(TOKEN), company=company, role="admin",
                         name="bench", user_name="Bench"))
    session.execute(insert(Partner.__table__), partner_rows(rng, company, 150))
    session.flush()
    today = date.today()
    return BenchData(company=company, today=today,
                     partners=len(load_ctx(session, company, today).partners))


def populate_incomes(session: Session, data: BenchData, rng: random.Random, count: int) -> None:
    """`count` incomes spread over three years, written in chunks."""
    ctx = load_ctx(session, data.company, data.today)
    ages = sorted((rng.randint(0, data.span_days - 1) for _ in range(count)), reverse=True)
    for start in range(0, count, CHUNK):
        writer = IncomeWriter(session)
        for age in ages[start:start + CHUNK]:
            random_income(ctx, writer, rng, age)
        writer.flush()
    data.incomes = count
