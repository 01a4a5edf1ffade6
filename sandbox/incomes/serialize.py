"""Income JSON: list records with integer references and lookup tables, detail with objects."""
from __future__ import annotations

import json
from datetime import UTC, date, datetime

from sqlalchemy import Select, bindparam, func, select

from sandbox.catalog.model import Currency, RevenueType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.model import rate_str
from sandbox.incomes.model import Income
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

SCALARS = ("partner_name", "partner_zip_code", "partner_city", "partner_address",
           "partner_country", "partner_tax_number", "partner_account_number", "invoice_number",
           "vat_area", "payment_method", "integration_payment_method", "paid_status",
           "invoice_type", "is_cancelled", "referred_invoice_number", "needs_review",
           "review_done", "secondary_id", "source", "version")
DATES = ("issued_at", "fulfilled_at", "due_at", "planned_payment_date",
         "accounting_period_start", "accounting_period_end")
AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
DETAIL_SCALARS = ("paid_through", "note", "ledger_number_id", "vat_period_type")
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


def amount(value) -> str | None:
    """Amounts travel as decimal strings with two places (stored values have two already)."""
    # %-formatting goes through float: ten times faster than Decimal.__format__, and exact
    # for the 14-digit, 2-place amounts stored here.
    return None if value is None else "%.2f" % value  # noqa: UP031


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
    data.update({key: amount(getattr(income, key)) for key in AMOUNTS})
    data.update(currency=income.currency_id, exchange_rate=rate_str(income.exchange_rate),
                accounting_status=accounting_status(income),
                user_saw=iso_timestamp(income.user_saw),
                created_at=iso_timestamp(income.created_at),
                updated_at=iso_timestamp(income.updated_at))
    return data


def item_json(item) -> dict:
    """An invoice line; vat_percent is a float (spec 9.5)."""
    return {"id": item.id, "name": item.name, "quantity": "%.4f" % item.quantity,  # noqa: UP031
            "unit": item.unit, "unit_price": amount(item.unit_price),
            "net_amount": amount(item.net_amount), "vat_amount": amount(item.vat_amount),
            "gross_amount": amount(item.gross_amount), "vat_percent": float(item.vat_percent)}


def vat_json(vat: VatCategory | None) -> dict | None:
    """The VAT reference object; percent is a float."""
    if vat is None:
        return None
    return {"id": vat.id, "name": vat.name, "percent": float(vat.percent)}


def assignment_json(row, vats: dict[int, VatCategory], tag_ids: list[int]) -> dict:
    """A list-style assignment: integer references, vat as an object with percent."""
    return {"id": row.id, "revenue_type": row.revenue_type_id,
            "net_amount": amount(row.net_amount), "vat_amount": amount(row.vat_amount),
            "gross_amount": amount(row.gross_amount), "vat": vat_json(vats.get(row.vat_id)),
            "tags": tag_ids, "job_number": row.job_number,
            "ledger_number_id": row.ledger_number_id,
            "vat_ledger_number_id": row.vat_ledger_number_id,
            "company_vat_category_id": row.company_vat_category_id}


# SELECT value FROM json_each(:ids): a whole id list as one bound parameter. Built once, so
# SQLAlchemy's compiled cache serves every page; run with ids_param(ids).
ID_VALUES: Select = select(func.json_each(bindparam("ids")).table_valued("value").c.value)


def ids_param(ids) -> dict:
    """The bound parameter for ID_VALUES."""
    return {"ids": json.dumps(list(ids))}


def by_id(model, ids: set[int], company: Company | None = None) -> dict:
    """Catalogue rows by id (one Core query), limited to the company when given."""
    if not ids:
        return {}
    table = model.__table__
    stmt = select(table).where(table.c.id.in_(ID_VALUES)).order_by(table.c.id)
    if company is not None:
        stmt = stmt.where(table.c.company_id == company.id)
    return {row.id: row for row in db().execute(stmt, ids_param(ids)).all()}


def lookup_tables(ids: dict[str, set[int]], vats: dict, company: Company) -> dict:
    """The {id, name} tables for the ids a list page references."""
    named = lambda model, key: [{"id": r.id, "name": r.name}  # noqa: E731
                                for r in by_id(model, ids[key], company).values()]
    return {
        "revenue_types": named(RevenueType, "revenue_type"),
        "tags": named(Tag, "tag"),
        "partners": [{"id": p.id, "name": p.name, "tax_number": p.tax_number}
                     for p in by_id(Partner, ids["partner"], company).values()],
        "currencies": [{"id": c.id, "code": c.code, "name": c.name}
                       for c in by_id(Currency, ids["currency"]).values()],
        "vat_categories": [vat_json(v) for v in vats.values()],
        "ledger_numbers": [{"id": n.id, "name": n.name, "code": n.code}
                           for n in by_id(LedgerNumber, ids["ledger"], company).values()],
    }
