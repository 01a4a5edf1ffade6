"""Company 1's showcase incomes: the first ids of a demo sandbox, one per interesting state.

id  what                                                         edit group
 1  accounting document, 2 assignments, unpaid, not due yet       (a)+(b) + is_cancelled
 2  invoice synced from szamlazz.hu, paid                          (a)
 3  invoice from billingo, needs review: no revenue type           (a)
 4  invoice from NAV, needs review: no tags                        (a)
 5  accounting document, needs review: new partner                 (a)+(b)
 6  cash receipt (type 6)                                          (c)
 7  collective receipt (type 7)                                   (c)
 8  processed accounting document                                  (d)
 9  booked invoice                                                 (d)
10  accounting document cancelled by storno 11 (zero payment)      (a)+(b)
11  storno of 10 (invoice_type 1)                                  (a)+(b)
12  storno sent before its original (cancelled nothing)            (a)+(b)
13  the original of 12, created later, not cancelled               (a)+(b)
14  EUR invoice with exchange rate, partially paid                 (a)
15  USD invoice outside the EU (3RD), processed                    (d)
16  accounting document, unpaid and overdue                        (a)+(b)
17  invoice partially paid and overdue                             (a)
18  yearly subscription with accounting period, reviewed           (a)+(b)
19  storno naming invoice 2 (synced, so 2 stays uncancelled)       (a)+(b)
"""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from sandbox.incomes.bulk import IncomeWriter
from sandbox.incomes.demo import DemoCtx, header, items_for, partner_fields, split


def seed_showcase(ctx: DemoCtx, writer: IncomeWriter, rng) -> None:
    """Write ids 1-19 (see the table above) before any random income."""
    huf, today = Decimal(1), ctx.today
    regular = [p for p in ctx.partners if p["country"] == "HU" and not p["new"]]
    new = next(p for p in ctx.partners if p["new"] and p["customer"])
    eu = next(p for p in ctx.partners if p["country"] not in ("HU", None))

    def add(kind, source, age, partner, payments="none", vat=27.0, tags=(), splits=1,
            missing=False, rate=huf, **extra) -> tuple[int, dict]:
        issued = today - timedelta(days=age)
        row = header(ctx, rng, kind, source, issued, exchange_rate=rate,
                     exchange_date=issued if rate != 1 else None,
                     **partner_fields(partner), **extra)
        items = items_for(rng, kind, 0.0 if isinstance(vat, str) else vat, rate)
        items = items * 2 if splits == 2 and len(items) == 1 else items
        gross = writer.gross_of(row, items)
        paid = {"none": [], "full": [(row["due_at"], gross)],
                "part": [(issued + timedelta(days=3), (gross / 3).quantize(Decimal("0.01")))],
                "zero": [(issued, Decimal(0))]}[payments]
        parts = split(ctx, rng, vat, missing_type=missing, n=splits)
        if not tags:
            for part in parts:
                part["tags"] = ()
        return writer.add(row, items, parts, paid, tags), row

    add(2, "manual", 3, regular[0], splits=2, tags=(ctx.tags[0],))
    _, synced = add(1, "szamlazz.hu", 5, regular[1], payments="full", tags=(ctx.tags[1],))
    add(1, "billingo", 2, regular[2], missing=True, needs_review=True)
    add(1, "NAV", 6, regular[3], needs_review=True)
    add(2, "manual", 1, new, needs_review=True, tags=(ctx.tags[2],))
    add(6, "manual", 4, None, payments="full", payment_method="cash", tags=(ctx.tags[0],))
    add(7, "manual", 9, None, payments="full", payment_method="card", tags=(ctx.tags[0],))
    add(2, "api", 50, regular[4], payments="full", is_processed=True, tags=(ctx.tags[3],))
    add(1, "szamlazz.hu", 150, regular[5], payments="full", is_processed=True, is_booked=True,
        tags=(ctx.tags[1],))
    storno_pair(ctx, writer, rng, today - timedelta(days=40), regular[6])
    late = ctx.number("manual", today - timedelta(days=29))
    _, lines = storno(ctx, writer, rng, today - timedelta(days=30), late, regular[7])
    writer.add(header(ctx, rng, 2, "manual", today - timedelta(days=29), invoice_number=late,
                      **partner_fields(regular[7])),
               negate(lines), split(ctx, rng, 27.0), [])
    add(1, "billingo", 20, eu, vat="EU", payments="part", vat_area="EU",
        currency_id=ctx.currencies["EUR"], rate=Decimal("401.25"), tags=(ctx.tags[2],))
    add(1, "szamlazz.hu", 70, regular[8], vat="3RD", payments="full", vat_area="3RD",
        currency_id=ctx.currencies["USD"], rate=Decimal("362.40"), is_processed=True,
        tags=(ctx.tags[3],))
    add(2, "manual", 60, regular[9], tags=(ctx.tags[0],))
    add(1, "szamlazz.hu", 40, regular[10], payments="part", tags=(ctx.tags[1],))
    start = (today - timedelta(days=10)).replace(day=1)
    add(2, "api", 10, regular[11], needs_review=True, review_done=True, tags=(ctx.tags[0],),
        accounting_period_start=start, secondary_id="SZERZ-2024/17",
        accounting_period_end=start.replace(year=start.year + 1) - timedelta(days=1),
        note="Éves támogatási díj, havi elhatárolással.")
    storno(ctx, writer, rng, today - timedelta(days=4), synced["invoice_number"], regular[1])


def negate(items: list[tuple]) -> list[tuple]:
    """The same lines with negative quantities (what a storno carries)."""
    return [(name, -qty, price, pct) for name, qty, price, pct in items]


def storno(ctx: DemoCtx, writer: IncomeWriter, rng, day, referred: str, partner: dict,
           items: list | None = None) -> tuple[int, list]:
    """A storno accounting document (invoice_type 1) with negative lines; settled at once."""
    row = header(ctx, rng, 2, "manual", day, invoice_type=1, referred_invoice_number=referred,
                 invoice_number=ctx.number("storno", day), **partner_fields(partner))
    row["due_at"] = day
    items = items or negate(items_for(rng, 2, 27.0, Decimal(1)))
    payments = [(day, writer.gross_of(row, items))]
    return writer.add(row, items, split(ctx, rng, 27.0), payments), items


def storno_pair(ctx: DemoCtx, writer: IncomeWriter, rng, day, partner: dict | None = None
                ) -> tuple[int, int]:
    """An accounting document cancelled (one zero payment) by a storno a few days later."""
    partner = partner or rng.choice([p for p in ctx.partners if p["customer"]])
    row = header(ctx, rng, 2, "manual", day, is_cancelled=True, **partner_fields(partner))
    items = items_for(rng, 2, 27.0, Decimal(1))
    original = writer.add(row, items, split(ctx, rng, 27.0), [(day, Decimal(0))])
    return original, storno(ctx, writer, rng, day + timedelta(days=2), row["invoice_number"],
                            partner, negate(items))[0]
