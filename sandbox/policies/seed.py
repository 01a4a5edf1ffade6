"""Demo income policies for company 1, and a few invoices imported through them (runs last)."""
from __future__ import annotations

import copy
import random
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core.model import budapest_today
from sandbox.incomes.model import Income, IncomeItem
from sandbox.incomes.periods import recalc_payments
from sandbox.policies.demo import CONFIG, INVOICES, PARTNERS
from sandbox.policies.importing import attach_partner
from sandbox.policies.rules import evaluate_income, store

ITEM_NAMES = {1: ("Szoftverlicenc, éves", "Bevezetési szolgáltatás", "Gépalkatrész szállítás",
                  "Tanácsadás"), 6: ("Nyugtás eladás",)}


def seed_demo(session: Session, companies: dict[int, Company], rng: random.Random) -> None:
    """Give company 1 its policies and import the demo invoices through them."""
    company = companies[1]
    company.income_policies = copy.deepcopy(CONFIG)
    codes = {c.code: c.id for c in session.scalars(select(Currency))}
    today = budapest_today()
    for number, row in enumerate(INVOICES, start=1):
        income = _invoice(company, row, number, codes, today, rng)
        run = evaluate_income(session, company, income)
        if run.outcome.ignored:
            continue
        attach_partner(session, income, company)
        store(session, company, income, run)
    session.flush()


def _invoice(company: Company, row: tuple, number: int, codes: dict, today: date,
             rng: random.Random) -> Income:
    partner, source, kind, net, rate, currency, exchange, area, note, days = row
    issued = today - timedelta(days=days)
    net_amount = Decimal(net)
    # Forint invoices state VAT in whole forints; other currencies to the cent.
    unit = Decimal(1) if currency == "HUF" else Decimal("0.01")
    vat_amount = (net_amount * rate / 100).quantize(unit, rounding=ROUND_HALF_UP)
    prefix = "TESZT" if partner == "proba" else ("NY" if kind == 6 else "SZLA")
    income = Income(
        company_id=company.id, type=kind, invoice_type=0, source=source,
        invoice_number=f"{prefix}-{issued.year}-P{number:03d}", issued_at=issued,
        fulfilled_at=issued, due_at=issued + timedelta(days=8 if kind == 1 else 0),
        currency_id=codes[currency], exchange_rate=Decimal(exchange), vat_area=area,
        net_amount=net_amount, vat_amount=vat_amount, gross_amount=net_amount + vat_amount,
        payment_method="transfer" if kind == 1 else "cash", note=note, paid_amount=Decimal(0),
        payments=[], needs_review=False, review_done=False, **PARTNERS[partner])
    income.items = [IncomeItem(position=0, name=rng.choice(ITEM_NAMES[kind]),
                               quantity=Decimal(1), unit="db", unit_price=net_amount,
                               net_amount=net_amount, vat_amount=vat_amount,
                               gross_amount=net_amount + vat_amount, vat_percent=float(rate))]
    recalc_payments(income)
    return income
