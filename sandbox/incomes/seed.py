"""Demo incomes: company 1 gets the showcase records (ids 1-18, see demo_showcase) and 382
random ones over the last 12 months; company 2 gets 60. Written in bulk (Core), so it is fast.

Random incomes follow a realistic life cycle: older than ~4 months mostly booked, older than
~6 weeks mostly processed, payments after the due date (some overdue, some partial), recent
unprocessed ones often need review (missing revenue type on synced invoices, no tags, a new
partner), a few cancelled documents and storno pairs. Invoices and every other accounting
document carry a small PDF invoice image (has_artifact true, served by /1/artifacts/income/).
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from itertools import accumulate

from sqlalchemy import insert
from sqlalchemy.orm import Session

from sandbox.company.model import Company
from sandbox.core.demo_files import minimal_pdf
from sandbox.core.model import budapest_today
from sandbox.incomes.bulk import IncomeWriter
from sandbox.incomes.demo import DemoCtx, header, items_for, load_ctx, partner_fields, split
from sandbox.incomes.model import IncomeArtifact
from sandbox.incomes.showcase import seed_showcase, storno_pair

KINDS = (1,) * 45 + (2,) * 35 + (6,) * 12 + (7,) * 8
SYNC_SOURCES = ("szamlazz.hu",) * 9 + ("billingo",) * 8 + ("NAV",) * 3


def seed_demo(session: Session, companies: dict[int, Company], rng) -> None:
    """Add demo incomes to companies 1 and 2."""
    today = budapest_today()
    for number, count, showcase in ((1, 382, True), (2, 60, False)):
        ctx = load_ctx(session, companies[number], today)
        writer = IncomeWriter(session)
        if showcase:
            seed_showcase(ctx, writer, rng)
        for age in sorted((rng.randint(0, 364) for _ in range(count)), reverse=True):
            random_income(ctx, writer, rng, age)
        _stornos(ctx, writer, rng, 4 if showcase else 1)
        _renumber(ctx, writer)
        images = _invoice_images(ctx, writer.rows["income"])
        writer.flush()
        session.execute(insert(IncomeArtifact.__table__), images)


def _invoice_images(ctx: DemoCtx, rows: list[dict]) -> list[dict]:
    """A PDF for every invoice and every other accounting document (id 1 included)."""
    return [{"income_id": row["id"], "filename": f"{row['invoice_number'].replace('/', '_')}.pdf",
             "extension": "pdf", "created_at": row["created_at"],
             "content": minimal_pdf([ctx.company.name, f"Számla: {row['invoice_number']}",
                                     f"Vevő: {row['partner_name'] or '-'}",
                                     f"Kelt: {row['issued_at']}"])}
            for row in rows if row["type"] == 1 or (row["type"] == 2 and row["id"] % 2)]


def _renumber(ctx: DemoCtx, writer: IncomeWriter) -> None:
    """Showcase records come first (low ids); numbers still follow the issue dates."""
    mapping = ctx.chronological()
    for row in writer.rows["income"]:
        row["invoice_number"] = mapping.get(row["invoice_number"], row["invoice_number"])
        if row["referred_invoice_number"]:
            row["referred_invoice_number"] = mapping.get(row["referred_invoice_number"],
                                                         row["referred_invoice_number"])


def random_income(ctx: DemoCtx, writer: IncomeWriter, rng, age: int) -> None:
    """One random income issued `age` days ago (also used by bench.sandbox_scale)."""
    issued = ctx.today - timedelta(days=age)
    kind = rng.choice(KINDS)
    source = rng.choice(SYNC_SOURCES) if kind == 1 else (
        rng.choice(("manual", "manual", "api")) if kind == 2 else "manual")
    partner = None if kind in (6, 7) else _partner(ctx, rng, age)
    currency, rate, vat_key = _money(ctx, rng, partner)
    review = _review(ctx, rng, age, kind, partner)
    missing, untagged = review.pop("_missing", False), review.pop("_untagged", False)
    row = header(ctx, rng, kind, source, issued, currency_id=ctx.currencies[currency],
                 exchange_rate=rate, exchange_date=issued if rate != 1 else None,
                 vat_area=vat_key if isinstance(vat_key, str) else "HU",
                 **partner_fields(partner), **review, **_processing(rng, age, review),
                 **_extras(rng, kind, issued))
    items = items_for(rng, kind, 0.0 if isinstance(vat_key, str) else vat_key, rate)
    splits = split(ctx, rng, vat_key, missing_type=missing,
                   n=2 if len(items) > 2 and rng.random() < 0.5 else 1)
    if untagged:
        for part in splits:
            part["tags"] = ()
    tags = () if review.get("needs_review") else tuple(rng.sample(ctx.tags, rng.choice((0, 1))))
    writer.add(row, items, splits, _payments(writer, rng, kind, row, items), tags)


def _partner(ctx: DemoCtx, rng, age: int) -> dict:
    """A customer; the first few are regulars; new partners only on recent incomes."""
    key = "recent" if age < 20 else "old"
    if key not in ctx.cache:
        customers = [p for p in ctx.partners if p["customer"] and (age < 20 or not p["new"])]
        weights = list(accumulate(6 if i < 8 else 1 for i in range(len(customers))))
        ctx.cache[key] = (customers, weights)
    customers, weights = ctx.cache[key]
    return rng.choices(customers, cum_weights=weights)[0]


def _money(ctx: DemoCtx, rng, partner: dict | None) -> tuple[str, Decimal, object]:
    if partner and partner["country"] not in (None, "HU"):
        return "EUR", _rate(rng, "EUR"), "EU"
    roll = rng.random()
    if roll < 0.12:
        return "EUR", _rate(rng, "EUR"), 27.0
    if roll < 0.18:
        return "USD", _rate(rng, "USD"), "3RD" if rng.random() < 0.5 else 27.0
    return "HUF", Decimal(1), rng.choice((27.0,) * 8 + (18.0, 5.0))


def _rate(rng, code: str) -> Decimal:
    from sandbox.incomes.demo import RATES

    low, high = RATES[code]
    return (low + (high - low) * Decimal(rng.randint(0, 1000)) / 1000).quantize(Decimal("0.01"))


def _review(ctx: DemoCtx, rng, age: int, kind: int, partner: dict | None) -> dict:
    """Needs review: recent unprocessed incomes, for a reason the data shows."""
    if partner and partner["new"]:
        return {"needs_review": True, "review_done": False}
    if age < 75 and rng.random() < 0.55:
        reason = "_missing" if kind == 1 and rng.random() < 0.6 else "_untagged"
        return {"needs_review": True, "review_done": False, reason: True}
    if 75 <= age < 160 and rng.random() < 0.12:
        return {"needs_review": True, "review_done": True}
    return {}


def _processing(rng, age: int, review: dict) -> dict:
    if review.get("needs_review") and not review.get("review_done"):
        return {}
    if age > 120 and rng.random() < 0.8:
        return {"is_processed": True, "is_booked": True}
    return {"is_processed": True} if age > 45 and rng.random() < 0.85 else {}


def _extras(rng, kind: int, issued: date) -> dict:
    extra = {}
    if kind == 2 and rng.random() < 0.04:
        extra["is_cancelled"] = True
    if kind in (1, 2) and rng.random() < 0.15:
        extra["secondary_id"] = f"PO-{issued.year}-{rng.randint(100, 999)}"
    if kind in (1, 2) and rng.random() < 0.05:
        extra.update(accounting_period_start=issued.replace(day=1),
                     accounting_period_end=issued.replace(year=issued.year + 1, day=1)
                     - timedelta(days=1))
    return extra


def _payments(writer: IncomeWriter, rng, kind: int, row: dict, items: list) -> list:
    if row.get("is_cancelled"):
        return [(row["issued_at"], Decimal(0))]
    gross = writer.gross_of(row, items)
    if kind in (6, 7):
        return [(row["issued_at"], gross)]
    roll, overdue = rng.random(), row["due_at"] < budapest_today()
    if roll < (0.82 if overdue else 0.3):
        return [(min(row["due_at"], budapest_today()), gross)]
    if roll < (0.9 if overdue else 0.36):
        return [(row["issued_at"] + timedelta(days=5), (gross * Decimal("0.4")).quantize(
            Decimal("0.01")))]
    return []


def _stornos(ctx: DemoCtx, writer: IncomeWriter, rng, count: int) -> None:
    """Pairs of a cancelled accounting document and the storno that cancelled it."""
    for _ in range(count):
        storno_pair(ctx, writer, rng, ctx.today - timedelta(days=rng.randint(20, 300)))
