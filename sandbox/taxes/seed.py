"""Demo taxes and salaries: twelve payment months of a Hungarian payroll and VAT calendar."""
from __future__ import annotations

import itertools
import random
from datetime import date
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Tag
from sandbox.company.model import Company
from sandbox.core.model import budapest_today
from sandbox.taxes.model import Salary, Tax
from sandbox.taxes.rules import SALARIES, TAXES, months

# name, gross monthly salary, bank account (illustrative)
STAFF = {
    1: (("Kovács Anna", 780_000, "11773016-11111111"), ("Szabó Péter", 650_000,
                                                         "10918001-22222222"),
        ("Tóth Eszter", 540_000, "11600006-33333333"), ("Nagy Gábor", 920_000,
                                                        "10700024-44444444"),
        ("Horváth Júlia", 430_000, "12010855-55555555")),
    2: (("Varga Zoltán", 510_000, "11742001-66666666"), ("Kiss Réka", 390_000,
                                                          "10404017-77777777")),
}
# Payroll-based contributions: (code or None, name, account, rate). Codes as published by NAV;
# the accounts of the uncoded ones are illustrative demo values.
PAYROLL = {
    1: (("103", None, None, "0.15"), ("125", None, None, "0.185"),
        (None, "Szociális hozzájárulási adó (SZOCHO)", "10032000-06055912", "0.13")),
    2: (("103", None, None, "0.15"), ("125", None, None, "0.185")),
}
IPA = ("Helyi iparűzési adó (IPA) – Budapest", "10100716-49900113")
KIVA = ("Kisvállalati adó (KIVA)", "10032000-06057000")
PAYROLL_SOURCE = {1: "kulcs-ber", 2: "manual"}
NET_SHARE = Decimal("0.665")


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Add twelve months of taxes and salaries to each demo company."""
    today = budapest_today()
    months = [_month_back(today, back) for back in range(11, -1, -1)]
    for number, company in companies.items():
        tags = list(session.scalars(select(Tag).where(Tag.company_id == company.id)))
        numbers = [_tax_number(rng) for _ in STAFF.get(number, ())]
        for month in months:
            status = _status(month, today, rng)
            rows = _taxes(number, company, month, status, tags, rng) + \
                _salaries(number, company, month, status, numbers, tags)
            for row in rows:
                _live_fields(row)
            session.add_all(rows)
    session.flush()


def _taxes(number: int, company: Company, month: date, status, tags, rng) -> list[Tax]:
    payroll = sum(Decimal(gross) for _, gross, _ in STAFF.get(number, ()))
    source = PAYROLL_SOURCE.get(number, "manual")
    rows = [Tax(company_id=company.id, month=month, code=code, name=name, account_number=acct,
                amount=(payroll * Decimal(rate)).quantize(Decimal(1)), paid_status=status(),
                source=source, description=f"{_label(month)} bérek után")
            for code, name, acct, rate in PAYROLL.get(number, ())]
    if number == 1 or month.month in (1, 4, 7, 10):
        vat = Decimal(rng.randrange(180_000, 1_400_000, 1_000))
        rows.append(Tax(company_id=company.id, month=month, code="104", amount=vat,
                        paid_status=status(), source="nav" if number == 1 else "manual",
                        description="ÁFA bevallás szerint"))
    if number == 1 and month.month in (3, 9):
        rows.append(Tax(company_id=company.id, month=month, name=IPA[0], account_number=IPA[1],
                        amount=Decimal(rng.randrange(150_000, 400_000, 1_000)),
                        paid_status=status(), source="manual", description="IPA előleg",
                        tags=tags[:1]))
    if number == 2 and month.month in (1, 4, 7, 10):
        rows.append(Tax(company_id=company.id, month=month, name=KIVA[0], account_number=KIVA[1],
                        amount=(payroll * 3 * Decimal("0.10")).quantize(Decimal(1)),
                        paid_status=status(), source="manual", description="Negyedéves KIVA"))
    if tags and rows:
        rows[0].simple_tags = [tags[rng.randrange(len(tags))]]
    return rows


def _salaries(number, company, month: date, status, numbers, tags) -> list[Salary]:
    rows = []
    for (name, gross, account), tax_number in zip(STAFF.get(number, ()), numbers, strict=True):
        rows.append(Salary(company_id=company.id, month=month, tax_number=tax_number, name=name,
                           account_number=account, due_at=month.replace(day=10),
                           amount=(Decimal(gross) * NET_SHARE).quantize(Decimal(1)),
                           paid_status=status(), source=PAYROLL_SOURCE.get(number, "manual"),
                           description=f"{_label(month)} nettó bér",
                           tags=tags[1:2] if name.startswith("N") else []))
    return rows


def _live_fields(row) -> None:
    """title, due_at and external_id as a payroll program sends them (see months())."""
    filled = months({"month": row.month, "due_at": row.due_at}, SALARIES if
                    isinstance(row, Salary) else TAXES)
    row.title, row.due_at = filled["title"], filled["due_at"]
    if row.source != "manual":
        row.external_id = f"{row.source}-{row.month:%Y%m}-{row.code or row.name}"


def _status(month: date, today: date, rng: random.Random):
    """Old months are paid, last month is partly paid, the current month is open."""
    age = (today.year - month.year) * 12 + today.month - month.month
    if age >= 2:
        return lambda: 2
    if age == 1:
        statuses = itertools.cycle((2, 3, 1, rng.choice((2, 3))))
        return lambda: next(statuses)
    return lambda: 1


def _month_back(today: date, back: int) -> date:
    index = today.year * 12 + today.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def _label(month: date) -> str:
    previous = _month_back(month, 1)
    return f"{previous.year}. {previous.month:02d}. havi"


def _tax_number(rng: random.Random) -> str:
    """A valid Hungarian tax identification number (8, birth-day count, serial, check digit)."""
    while True:
        digits = "8" + f"{rng.randint(20_000, 40_000):05d}" + f"{rng.randint(0, 999):03d}"
        check = sum(int(d) * i for i, d in enumerate(digits, start=1)) % 11
        if check < 10:
            return digits + str(check)
