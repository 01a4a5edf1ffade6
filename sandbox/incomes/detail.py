"""The income detail record (GET /1/incomes/{id}/, and every write's answer)."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from sandbox.catalog.model import Currency, RevenueType, VatCategory
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import not_found
from sandbox.core.model import budapest_today
from sandbox.incomes.model import Income, IncomeAssignment
from sandbox.incomes.periods import vat_period_end
from sandbox.incomes.rules import editable_fields
from sandbox.incomes.serialize import (
    DETAIL_DATES,
    DETAIL_SCALARS,
    amount,
    header_json,
    iso_date,
    item_json,
    vat_json,
)
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

EXPANSIONS = ("accounting", "items", "payment_history")


def load_income(income_id: int, company: Company) -> Income:
    """The company's income with its children, or 404."""
    stmt = (select(Income).where(Income.id == income_id, Income.company_id == company.id)
            .options(selectinload(Income.assignments).selectinload(IncomeAssignment.tags),
                     selectinload(Income.items), selectinload(Income.payments),
                     selectinload(Income.tags), selectinload(Income.simple_tags)))
    income = db().scalars(stmt).one_or_none()
    if income is None:
        raise not_found()
    return income


def parse_expand(raw: str | None) -> set[str]:
    """fields=accounting,items,payment_history (unknown names are ignored, as upstream)."""
    return {part.strip() for part in (raw or "").split(",") if part.strip() in EXPANSIONS}


def detail_json(income: Income, company: Company, expand: set[str] = frozenset()) -> dict:
    """References as objects, editable_fields, payment state; expansions on request."""
    data = header_json(income)
    data.update({key: getattr(income, key) for key in DETAIL_SCALARS})
    data.update({key: iso_date(getattr(income, key)) for key in DETAIL_DATES})
    data.update(partner_id=income.partner_id, partner=_named(Partner, income.partner_id),
                currency=_currency(income.currency_id),
                ledger_number=_ledger(income.ledger_number_id),
                tags=[_tag(t) for t in income.tags],
                simple_tags=[_tag(t) for t in income.simple_tags],
                assignments=[_assignment(row) for row in income.assignments],
                items=[item_json(item) for item in income.items],
                paid_amount=amount(income.paid_amount),
                unpaid_amount=amount(_unpaid(income)),
                is_overdue=_overdue(income), has_artifact=income.artifact is not None,
                editable_fields=editable_fields(income, company))
    if "accounting" in expand:
        data.update(accounting_id=income.accounting_id, vat_period_ended_at=iso_date(
            vat_period_end(income.vat_period_type, income.vat_period_started_at)))
    if "payment_history" in expand:
        data["payment_history"] = [
            {"id": p.id, "date": iso_date(p.paid_at), "amount": amount(p.amount),
             "method": p.method} for p in income.payments]
    return data


def _unpaid(income: Income):
    return 0 if income.is_cancelled or income.paid_status == 2 else (
        income.gross_amount - income.paid_amount)


def _overdue(income: Income) -> bool:
    return bool(income.paid_status != 2 and income.due_at and income.due_at < budapest_today())


def _tag(tag) -> dict:
    return {"id": tag.id, "name": tag.name}


def _named(model, ref_id: int | None) -> dict | None:
    row = db().get(model, ref_id) if ref_id is not None else None
    return None if row is None else {"id": row.id, "name": row.name}


def _currency(ref_id: int) -> dict | None:
    row = db().get(Currency, ref_id)
    return None if row is None else {"id": row.id, "name": row.code, "code": row.code}


def _ledger(ref_id: int | None) -> dict | None:
    row = db().get(LedgerNumber, ref_id) if ref_id is not None else None
    return None if row is None else {"id": row.id, "name": row.name, "code": row.code}


def _assignment(row: IncomeAssignment) -> dict:
    return {"id": row.id, "revenue_type": _named(RevenueType, row.revenue_type_id),
            "net_amount": amount(row.net_amount), "vat_amount": amount(row.vat_amount),
            "gross_amount": amount(row.gross_amount),
            "vat": vat_json(db().get(VatCategory, row.vat_id) if row.vat_id else None),
            "tags": [_tag(t) for t in row.tags], "job_number": row.job_number,
            "ledger_number_id": row.ledger_number_id,
            "vat_ledger_number_id": row.vat_ledger_number_id,
            "company_vat_category_id": row.company_vat_category_id}
