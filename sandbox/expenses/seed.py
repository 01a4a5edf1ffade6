"""Demo expenses: about 300 over twelve months for company 1, a few for company 2."""
from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import ExpenseType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.core.demo_files import minimal_pdf, tiny_png
from sandbox.core.model import budapest_today
from sandbox.expenses.model import (
    Expense,
    ExpenseAction,
    ExpenseAssignment,
    ExpenseFile,
    ExpenseItem,
)
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

# name, tax number, city, expense type, usual gross range, vat area
VENDORS = (
    ("MOL Nyrt.", "10625790-4-44", "Budapest", "Üzemanyag", (8_000, 45_000), "HU"),
    ("Magyar Telekom Nyrt.", "10773381-2-44", "Budapest", "Közüzemi díj", (9_000, 30_000), "HU"),
    ("E.ON Hungária Zrt.", "10770470-2-44", "Budapest", "Közüzemi díj", (20_000, 90_000), "HU"),
    ("Praktiker Kft.", "10409203-2-44", "Budaörs", "Anyagköltség", (3_000, 120_000), "HU"),
    ("Office Depot Kft.", "12345679-2-13", "Budapest", "Anyagköltség", (2_000, 60_000), "HU"),
    ("Váci úti Irodaház Kft.", "23456781-2-41", "Budapest", "Bérleti díj",
     (250_000, 450_000), "HU"),
    ("KBOSS.hu Kft.", "13421739-2-41", "Budapest", "Szoftver", (4_000, 25_000), "HU"),
    ("Google Ireland Ltd.", None, "Dublin", "Szoftver", (5_000, 40_000), "EU"),
)
# Vendors the partners seed made get a profile by the trade in their name.
TRADE_PROFILES = (("Informatika", "Szoftver", (10_000, 400_000)),
                  ("Ingatlan", "Bérleti díj", (150_000, 600_000)),
                  ("Energetika", "Közüzemi díj", (20_000, 150_000)),
                  ("Autóház", "Üzemanyag", (10_000, 80_000)))
SOURCES = ("szamlazz.hu", "billingo", "nav")
CUSTOM = (("Költséghely", ("KH-01 Iroda", "KH-02 Raktár", "KH-03 Értékesítés")),
          ("Projekt", ("Tavaszi kampány", "Webshop", "Irodaköltözés")))
COUNT = {1: 300, 2: 12}


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Add demo expenses to the demo companies."""
    today = budapest_today()
    for number, company in companies.items():
        refs = _references(session, company)
        rows = [_expense(company, refs, rng, today, n) for n in range(COUNT.get(number, 0))]
        # Ids grow with creation time, as they do on the live service.
        rows.sort(key=lambda e: e.created_at)
        for position, expense in enumerate(rows, start=1):
            expense.filing_number = f"K-{expense.created_at.year}-{position:05d}"
        session.add_all(rows)
    session.flush()


def _references(session: Session, company: Company) -> dict:
    def scoped(model) -> list:
        return list(session.scalars(
            select(model).where(model.company_id == company.id).order_by(model.id)))

    types = {t.name: t for t in scoped(ExpenseType)}
    vats = [v for v in scoped(VatCategory) if v.type == "cost"] or scoped(VatCategory)
    return {"vendors": _vendors(session, company), "types": types,
            "fallback_type": next(iter(types.values()), None),
            "vat": {v.vat_area: v for v in reversed(vats) if v.percent in (27.0, 0.0)},
            "tags": scoped(Tag), "ledger": scoped(LedgerNumber)}


def _vendors(session: Session, company: Company) -> list[list[tuple[Partner, tuple]]]:
    """Two pools of (partner, profile): well-known vendors, and the partners seed's vendors."""
    existing = {p.name: p for p in session.scalars(
        select(Partner).where(Partner.company_id == company.id, Partner.is_vendor.is_(True))
        .order_by(Partner.id))}
    known = []
    for profile in VENDORS:
        name, tax_number, city = profile[:3]
        partner = existing.pop(name, None)
        if partner is None:
            partner = Partner(company_id=company.id, name=name, tax_number=tax_number, city=city,
                              country="HU" if tax_number else "IE", is_vendor=True)
            session.add(partner)
        known.append((partner, profile))
    session.flush()
    return [known, [(p, _profile(p.name)) for p in existing.values()]]


def _profile(name: str) -> tuple:
    """An expense profile for a vendor of the partners seed, guessed from its trade."""
    for word, type_name, amounts in TRADE_PROFILES:
        if word in name:
            return (name, None, None, type_name, amounts, "HU")
    return (name, None, None, "Anyagköltség", (5_000, 250_000), "HU")


def _expense(company: Company, refs: dict, rng: random.Random, today: date, n: int) -> Expense:
    known, others = refs["vendors"]
    pool = others if others and rng.random() < 0.5 else known
    partner, (_name, _tax, _city, type_name, (low, high), vat_area) = rng.choice(pool)
    issued = today - timedelta(days=rng.randint(0, 364))
    created = datetime.combine(issued + timedelta(days=rng.randint(0, 6)), datetime.min.time(),
                               UTC) + timedelta(minutes=rng.randint(420, 1080))
    # Days after a recent issue date may still be to come: such an expense came in just now.
    created = min(created, datetime.now(UTC) - timedelta(minutes=1 + n % 120))
    gross = Decimal(rng.randint(low, high))
    expense = Expense(
        company_id=company.id, partner=partner, currency_id=company.default_currency_id,
        invoice_number=f"{_prefix(partner.name)}-{issued.year}-{rng.randint(1, 99999):05d}",
        issued_at=issued, fulfilled_at=issued,
        due_at=issued + timedelta(days=rng.choice((8, 15, 30))), created_at=created,
        updated_at=min(created + timedelta(days=rng.randint(0, 40)), datetime.now(UTC)),
        vat_area=vat_area, payment_method=rng.choice(("transfer", "transfer", "card", "cash")),
        paid_status=rng.choices((2, 1, 3), weights=(60, 25, 15))[0],
        custom_fields=_custom(rng), note="")
    expense.assignments = _assignments(refs, rng, type_name, gross, vat_area)
    _state(expense, rng)
    if rng.random() < 0.35:
        expense.items = _items(expense.assignments, type_name)
    if n % 2 == 0:
        _attach_demo_file(expense, n)
    expense.refresh_derived()
    return expense


def _prefix(name: str) -> str:
    return "".join(ch for ch in name if ch.isalnum())[:3].upper()


def _custom(rng: random.Random) -> dict:
    return {label: rng.choice(values) for label, values in CUSTOM if rng.random() < 0.5}


def _assignments(refs: dict, rng: random.Random, type_name: str, gross: Decimal,
                 vat_area: str) -> list[ExpenseAssignment]:
    vat = refs["vat"].get(vat_area) or refs["vat"].get("HU")
    rate = Decimal(str(vat.percent / 100)) if vat else Decimal("0.27")
    parts = [gross] if rng.random() < 0.8 else [(gross * Decimal("0.6")).quantize(1),
                                                gross - (gross * Decimal("0.6")).quantize(1)]
    rows = []
    for part in parts:
        net = (part / (1 + rate)).quantize(Decimal(1))  # forint invoices: whole net and VAT
        row = ExpenseAssignment(
            expense_type=refs["types"].get(type_name, refs["fallback_type"]), net_amount=net,
            vat_amount=part - net, gross_amount=part, vat=vat, job_number="",
            tags=rng.sample(refs["tags"], k=rng.choice((0, 0, 1))) if refs["tags"] else [])
        if refs["ledger"] and rng.random() < 0.5:
            row.ledger_number = refs["ledger"][-1]
        rows.append(row)
    return rows


def _state(expense: Expense, rng: random.Random) -> None:
    if rng.random() < 0.2:
        expense.source = rng.choice(SOURCES)
        expense.gross_amount = sum(a.gross_amount for a in expense.assignments)
        expense.net_amount = sum(a.net_amount for a in expense.assignments)
        expense.vat_amount = expense.gross_amount - expense.net_amount
    expense.processed = rng.random() < 0.45
    expense.checked = expense.processed and rng.random() < 0.5
    expense.booked = expense.processed and rng.random() < 0.3
    if rng.random() < 0.05:
        expense.excluded_from_accounting = True
        expense.actions = [ExpenseAction(type="exclude_from_accounting", user_name="Kovács Anna",
                                         created_at=expense.updated_at)]


def _items(assignments: list[ExpenseAssignment], type_name: str) -> list[ExpenseItem]:
    vat_percent = float(assignments[0].vat.percent) if assignments[0].vat else 27.0
    return [ExpenseItem(name=f"{type_name} {i + 1}", quantity=Decimal(1), unit="db",
                        unit_price=a.net_amount, net_amount=a.net_amount, vat_percent=vat_percent,
                        vat_amount=a.vat_amount, gross_amount=a.gross_amount)
            for i, a in enumerate(assignments)]


def _attach_demo_file(expense: Expense, n: int) -> None:
    is_pdf = n % 4 == 0
    data = minimal_pdf(f"Szamla {expense.invoice_number}") if is_pdf else tiny_png(n)
    kind = "pdf" if is_pdf else "png"
    expense.artifact_filename = f"{expense.invoice_number.lower()}.{kind}"
    expense.artifact_extension = kind
    expense.artifact_created_at = expense.created_at
    expense.file = ExpenseFile(data=data, content_type=f"{'application' if is_pdf else 'image'}/"
                                                       f"{kind}")
