"""Building blocks of demo incomes: the company context, numbering, items and headers."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency, RevenueType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.incomes.bulk import IncomeWriter, stamp
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

SERVICES = (("Szoftverfejlesztés", 12000, 22000, "óra"), ("Rendszerüzemeltetés", 90000, 350000,
            "hó"), ("Tanácsadás", 18000, 35000, "óra"), ("Webáruház karbantartás", 45000,
            120000, "hó"), ("Oktatás", 60000, 240000, "nap"), ("Licencdíj", 25000, 400000, "db"),
            ("Szállítási díj", 3500, 25000, "db"), ("Irodabútor", 40000, 260000, "db"),
            ("Nyomtatvány", 800, 6000, "db"), ("Rendezvényszervezés", 150000, 900000, "db"),
            ("Tárhelyszolgáltatás", 4900, 29000, "hó"), ("Grafikai tervezés", 15000, 30000,
            "óra"))
RECEIPT_GOODS = (("Kávé", 450, 900), ("Szendvics", 990, 2400), ("Könyv", 2990, 8990),
                 ("Nyomtatás", 50, 400), ("Ajándékutalvány", 5000, 20000))
RATES = {"EUR": (Decimal("385"), Decimal("412")), "USD": (Decimal("345"), Decimal("392"))}
PREFIX = {"szamlazz.hu": "E-PELDA-{y}-{n}", "billingo": "PK-{y}/{n:06d}", "NAV": "{y}/{n:05d}",
          "manual": "BIZ-{y}-{n:04d}", "storno": "STORNO-{y}-{n:03d}",
          6: "NY-{y}-{n:05d}", 7: "GYN-{y}-{n:04d}"}


@dataclass
class DemoCtx:
    """What a company's demo incomes refer to, plus numbering counters."""

    company: Company
    today: date
    revenue_types: list[int]
    tags: list[int]
    vats: dict  # percent (HU) or vat area (EU, 3RD) -> VAT category id
    ledger: list[int]
    currencies: dict[str, int]
    partners: list[dict]
    counters: dict = field(default_factory=dict)
    issued: dict = field(default_factory=dict)
    cache: dict = field(default_factory=dict)

    def number(self, key, day: date) -> str:
        """The next invoice number of a series (per source or type, per year)."""
        n = self.counters[(key, day.year)] = self.counters.get((key, day.year), 0) + 1
        number = PREFIX[key].format(y=day.year, n=n)
        self.issued[number] = (key, day, n)
        return number

    def chronological(self) -> dict[str, str]:
        """Old -> new numbers so that each series counts up with the issue date."""
        series: dict = {}
        for number, (key, day, n) in self.issued.items():
            series.setdefault((key, day.year), []).append((day, n, number))
        return {number: PREFIX[key].format(y=year, n=i)
                for (key, year), rows in series.items()
                for i, (_, _, number) in enumerate(sorted(rows), start=1)}


def load_ctx(session: Session, company: Company, today: date) -> DemoCtx:
    """Read the company's catalogue and partners."""
    def ids(model, *where):
        stmt = select(model.id).where(model.company_id == company.id, *where).order_by(model.id)
        return list(session.scalars(stmt))

    vats = {row.percent if row.vat_area == "HU" else row.vat_area: row.id
            for row in session.scalars(select(VatCategory).where(
                VatCategory.company_id == company.id, VatCategory.type == "revenue")
                .order_by(VatCategory.id.desc()))}
    partners = [{"id": p.id, "name": p.name, "zip": p.zip_code, "city": p.city,
                 "address": p.address, "country": p.country, "tax": p.tax_number,
                 "new": (datetime.now() - p.created_at.replace(tzinfo=None)).days < 30,
                 "customer": p.is_customer} for p in session.scalars(
        select(Partner).where(Partner.company_id == company.id).order_by(Partner.id))]
    return DemoCtx(company=company, today=today, revenue_types=ids(RevenueType),
                   tags=ids(Tag), vats=vats, ledger=ids(LedgerNumber),
                   currencies={c.code: c.id for c in session.scalars(select(Currency))},
                   partners=partners)


def items_for(rng, kind: int, pct: float, rate: Decimal) -> list[tuple]:
    """1-4 invoice lines (receipts: goods), prices converted to the income's currency."""
    lines = []
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4)) if kind in (1, 2) else rng.randint(1, 3)):
        if kind in (1, 2):
            name, low, high, _unit = rng.choice(SERVICES)
            qty = Decimal(rng.choice((1, 1, 1, 2, 3, 5, 8)) if high < 100000 else 1)
        else:
            name, low, high = rng.choice(RECEIPT_GOODS)
            qty = Decimal(rng.randint(1, 4))
        price = (Decimal(rng.randint(low, high)) / rate).quantize(Decimal("0.01"))
        lines.append((name, qty, price, pct))
    return lines


def partner_fields(partner: dict | None) -> dict:
    """The partner data an income carries."""
    if partner is None:
        return {"partner_id": None, "partner_name": None}
    return {"partner_id": partner["id"], "partner_name": partner["name"],
            "partner_zip_code": partner["zip"], "partner_city": partner["city"],
            "partner_address": partner["address"], "partner_country": partner["country"],
            "partner_tax_number": partner["tax"]}


INTEGRATION_WORDS = {"transfer": "Átutalás", "cash": "Készpénz", "card": "Bankkártya",
                     "cod": "Utánvét"}


def header(ctx: DemoCtx, rng, kind: int, source: str, issued: date, **extra) -> dict:
    """An income header with dates, numbering and timestamps filled in."""
    fulfilled = issued if kind in (6, 7) else issued - timedelta(days=rng.choice((0, 0, 1, 3)))
    due = issued if kind in (6, 7) else issued + timedelta(days=rng.choice((8, 15, 15, 30)))
    created = stamp(issued + timedelta(days=rng.choice((0, 0, 1, 2))), rng)
    # Days after a recent issue date may still be to come: such an income came in just now.
    now = datetime.now(UTC).replace(tzinfo=None)
    created = min(created, now - timedelta(minutes=1 + created.minute))
    key = kind if kind in (6, 7) else "manual" if source == "api" else source
    row = {"company_id": ctx.company.id, "type": kind, "invoice_type": 0, "source": source,
           "invoice_number": ctx.number(key, issued), "issued_at": issued,
           "fulfilled_at": fulfilled, "due_at": due, "currency_id": ctx.currencies["HUF"],
           "exchange_rate": Decimal(1), "vat_area": "HU", "created_at": created,
           "updated_at": created, "version": 1,
           "payment_method": rng.choice(("cash", "card")) if kind in (6, 7) else "transfer"}
    row.update(extra)
    # Live-only keys: synced incomes carry the integration's word for the payment method;
    # invoices and documents were opened in the web app a little after they arrived.
    if source not in ("manual", "api"):
        row["integration_payment_method"] = INTEGRATION_WORDS.get(row["payment_method"])
    if kind in (1, 2):
        row["user_saw"] = min(created + timedelta(hours=3), now)
    return row


def split(ctx: DemoCtx, rng, vat_key, missing_type: bool = False, n: int = 1) -> list[dict]:
    """n assignment splits with revenue type, VAT category (by percent or area) and tags."""
    return [{"revenue_type_id": None if missing_type else rng.choice(ctx.revenue_types),
             "vat_id": ctx.vats.get(vat_key, ctx.vats[27.0]),
             "ledger_number_id": ctx.ledger[rng.choice((0, 0, 1, 2))],
             "job_number": f"MUNKA-{rng.randint(100, 999)}" if rng.random() < 0.2 else None,
             "tags": tuple(rng.sample(ctx.tags, rng.choice((0, 1, 1))))} for _ in range(n)]


__all__ = ["DemoCtx", "IncomeWriter", "header", "items_for", "load_ctx", "partner_fields",
           "split"]
