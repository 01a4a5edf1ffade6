"""Income JSON: list records with integer references and lookup tables, detail with objects."""
from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import select

from .db import db
from .models import (
    Company,
    Currency,
    LedgerNumber,
    Partner,
    RevenueType,
    Tag,
    VatCategory,
    money_str,
)
from .models.incomes import Income, IncomeAssignment

SCALARS = ("partner_name", "partner_zip_code", "partner_city", "partner_address",
           "partner_country", "partner_tax_number", "invoice_number", "vat_area",
           "payment_method", "paid_status", "invoice_type", "is_cancelled",
           "referred_invoice_number", "needs_review", "review_done", "secondary_id", "source",
           "version")
DATES = ("issued_at", "fulfilled_at", "due_at", "planned_payment_date",
         "accounting_period_start", "accounting_period_end")
AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
DETAIL_SCALARS = ("partner_account_number", "paid_through", "note", "ledger_number_id",
                  "vat_period_type")
DETAIL_DATES = ("exchange_date", "vat_period_started_at")


def iso_date(value: date | None) -> str | None:
    """YYYY-MM-DD or None."""
    return value.isoformat() if value else None


def iso_timestamp(value: datetime | None) -> str | None:
    """ISO 8601 with a zone; SQLite hands back naive UTC values."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def rate_str(value) -> str:
    """Exchange rates carry six decimal places."""
    return f"{value:.6f}"


def accounting_status(income: Income) -> str:
    """not_processed, processed or booked."""
    if income.is_booked:
        return "booked"
    return "processed" if income.is_processed else "not_processed"


def header_json(income: Income) -> dict:
    """Fields shared by list and detail records."""
    data = {"id": income.id, "type": income.type, "partner": income.partner_id}
    data.update({key: getattr(income, key) for key in SCALARS})
    data.update({key: iso_date(getattr(income, key)) for key in DATES})
    data.update({key: money_str(getattr(income, key)) for key in AMOUNTS})
    data.update(currency=income.currency_id, exchange_rate=rate_str(income.exchange_rate),
                accounting_status=accounting_status(income),
                created_at=iso_timestamp(income.created_at),
                updated_at=iso_timestamp(income.updated_at))
    return data


def item_json(item) -> dict:
    """An invoice line; vat_percent is a float (spec 9.5)."""
    return {"id": item.id, "name": item.name, "quantity": f"{item.quantity:.4f}",
            "unit": item.unit, "unit_price": money_str(item.unit_price),
            "net_amount": money_str(item.net_amount), "vat_amount": money_str(item.vat_amount),
            "gross_amount": money_str(item.gross_amount), "vat_percent": float(item.vat_percent)}


def vat_json(vat: VatCategory | None) -> dict | None:
    """The VAT reference object; percent is a float."""
    if vat is None:
        return None
    return {"id": vat.id, "name": vat.name, "percent": float(vat.percent)}


def assignment_json(row: IncomeAssignment, vats: dict[int, VatCategory]) -> dict:
    """A list-style assignment: integer references, vat as an object with percent."""
    return {"id": row.id, "revenue_type": row.revenue_type_id,
            "net_amount": money_str(row.net_amount), "vat_amount": money_str(row.vat_amount),
            "gross_amount": money_str(row.gross_amount), "vat": vat_json(vats.get(row.vat_id)),
            "tags": [tag.id for tag in row.tags], "job_number": row.job_number,
            "ledger_number_id": row.ledger_number_id,
            "vat_ledger_number_id": row.vat_ledger_number_id,
            "company_vat_category_id": row.company_vat_category_id}


def list_record(income: Income, vats: dict[int, VatCategory]) -> dict:
    """One record of GET /1/incomes."""
    data = header_json(income)
    data.update(tags=[tag.id for tag in income.tags],
                simple_tags=[tag.id for tag in income.simple_tags],
                assignments=[assignment_json(a, vats) for a in income.assignments],
                items=[item_json(item) for item in income.items])
    return data


def list_results(incomes: list[Income], company: Company) -> dict:
    """The nested `results` object: incomes plus lookup tables for the ids they reference."""
    ids = _referenced_ids(incomes)
    vats = _by_id(VatCategory, ids["vat"], company)
    return {
        "incomes": [list_record(income, vats) for income in incomes],
        "revenue_types": _named(RevenueType, ids["revenue_type"], company),
        "tags": _named(Tag, ids["tag"], company),
        "partners": [{"id": p.id, "name": p.name, "tax_number": p.tax_number}
                     for p in _by_id(Partner, ids["partner"], company).values()],
        "currencies": [{"id": c.id, "code": c.code, "name": c.name}
                       for c in _by_id(Currency, ids["currency"]).values()],
        "vat_categories": [vat_json(v) for v in vats.values()],
        "ledger_numbers": [{"id": n.id, "name": n.name, "code": n.code}
                           for n in _by_id(LedgerNumber, ids["ledger"], company).values()],
    }


def _referenced_ids(incomes: list[Income]) -> dict[str, set[int]]:
    ids: dict[str, set[int]] = {k: set() for k in
                                ("revenue_type", "tag", "partner", "currency", "vat", "ledger")}
    for income in incomes:
        ids["partner"].add(income.partner_id)
        ids["currency"].add(income.currency_id)
        ids["ledger"].add(income.ledger_number_id)
        ids["tag"].update(t.id for t in income.tags + income.simple_tags)
        for row in income.assignments:
            ids["revenue_type"].add(row.revenue_type_id)
            ids["vat"].update((row.vat_id, row.company_vat_category_id))
            ids["ledger"].update((row.ledger_number_id, row.vat_ledger_number_id))
            ids["tag"].update(t.id for t in row.tags)
    return {key: {i for i in values if i is not None} for key, values in ids.items()}


def _by_id(model, ids: set[int], company: Company | None = None) -> dict:
    if not ids:
        return {}
    stmt = select(model).where(model.id.in_(ids)).order_by(model.id)
    if company is not None:
        stmt = stmt.where(model.company_id == company.id)
    return {row.id: row for row in db().scalars(stmt)}


def _named(model, ids: set[int], company: Company) -> list[dict]:
    return [{"id": row.id, "name": row.name} for row in _by_id(model, ids, company).values()]
