"""JSON shapes of expenses: list records with lookup tables, and the detail record."""
from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Company, Currency, ExpenseType, LedgerNumber, Partner, Tag, money_str
from .models.expenses import Expense, ExpenseAssignment


def iso(value: datetime | date | None) -> str | None:
    """Dates as YYYY-MM-DD; timestamps as ISO 8601 in UTC with the zone (SQLite drops it)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).isoformat()
    return value.isoformat()


def _ref(obj, *extra: str) -> dict | None:
    if obj is None:
        return None
    return {"id": obj.id, "name": obj.name, **{key: getattr(obj, key) for key in extra}}


def _vat(obj) -> dict | None:
    return None if obj is None else {"id": obj.id, "name": obj.name, "percent": float(obj.percent)}


def _common(e: Expense) -> dict:
    data = {
        "id": e.id, "invoice_number": e.invoice_number, "filing_number": e.filing_number,
        "issued_at": iso(e.issued_at), "fulfilled_at": iso(e.fulfilled_at),
        "due_at": iso(e.due_at), "created": iso(e.created_at), "created_at": iso(e.created_at),
        "updated_at": iso(e.updated_at), "exchange_rate": float(e.exchange_rate),
        "net_amount": money_str(e.net_amount), "vat_amount": money_str(e.vat_amount),
        "gross_amount": money_str(e.gross_amount), "paid_status": e.paid_status,
        "payment_method": e.payment_method, "vat_area": e.vat_area,
        "secondary_id": e.secondary_id, "accounting_status": e.accounting_status,
        "excluded_from_accounting": e.excluded_from_accounting, "source": e.source,
        "tags": [t.id for t in e.tags], "simple_tags": [t.id for t in e.simple_tags],
        "has_artifact": e.has_artifact,
    }
    if e.has_artifact:
        data["artifact_extension"] = e.artifact_extension
    return data


def _items(e: Expense) -> list[dict]:
    return [{"id": i.id, "name": i.name, "quantity": f"{i.quantity:.4f}", "unit": i.unit,
             "unit_price": money_str(i.unit_price), "net_amount": money_str(i.net_amount),
             "vat_percent": float(i.vat_percent), "vat_amount": money_str(i.vat_amount),
             "gross_amount": money_str(i.gross_amount)} for i in e.items]


def _amounts(a: ExpenseAssignment) -> dict:
    return {"id": a.id, "net_amount": money_str(a.net_amount),
            "vat_amount": money_str(a.vat_amount), "gross_amount": money_str(a.gross_amount),
            "vat": _vat(a.vat), "tags": [t.id for t in a.tags], "job_number": a.job_number}


def list_assignment(a: ExpenseAssignment) -> dict:
    """An assignment in a list: references as ids, except vat (an object with percent, 2.3)."""
    return {**_amounts(a), "expense_type": a.expense_type_id,
            "ledger_number": a.ledger_number_id, "vat_ledger_number": a.vat_ledger_number_id,
            "company_vat_category": a.company_vat_category_id}


def detail_assignment(a: ExpenseAssignment) -> dict:
    """An assignment in a detail: references as objects; ledger refs carry id, name and code."""
    return {**_amounts(a), "expense_type": _ref(a.expense_type),
            "ledger_number": _ref(a.ledger_number, "code"),
            "vat_ledger_number": _ref(a.vat_ledger_number, "code"),
            "company_vat_category": None if a.company_vat_category is None else
            {**_ref(a.company_vat_category), "code": None}}


def list_record(e: Expense) -> dict:
    """An expense as /2/expenses lists it."""
    return {**_common(e), "partner": e.partner_id,
            "partner_name": e.partner.name if e.partner else None,
            "currency": e.currency_id, "items": _items(e),
            "assignments": [list_assignment(a) for a in e.assignments]}


def detail_record(e: Expense, company: Company, editable: list[str]) -> dict:
    """The detail record, with editable_fields and the artifact fields when there is one."""
    partner = e.partner
    data = {**_common(e),
            "partner": None if partner is None else
            {"id": partner.id, "name": partner.name, "tax_number": partner.tax_number},
            "partner_name": partner.name if partner else None,
            "currency": {"id": e.currency.id, "code": e.currency.code, "name": e.currency.name},
            "note": e.note, "processed": e.processed, "checked": e.checked, "booked": e.booked,
            "custom_fields": dict(e.custom_fields or {}), "items": _items(e),
            "assignments": [detail_assignment(a) for a in e.assignments],
            "actions": [{"type": a.type, "created_at": iso(a.created_at), "user": a.user_name}
                        for a in e.actions],
            "editable_fields": editable}
    if e.has_artifact:
        data.update(artifact_created_at=iso(e.artifact_created_at),
                    artifact_filename=e.artifact_filename)
    return data


def lookup_tables(session: Session, expenses: list[Expense]) -> dict:
    """The {id, name} tables for every reference a page of expenses makes."""
    assignments = [a for e in expenses for a in e.assignments]
    tag_ids = {t.id for e in expenses for t in (*e.tags, *e.simple_tags)}
    tag_ids |= {t.id for a in assignments for t in a.tags}
    ledger_ids = {i for a in assignments for i in (a.ledger_number_id, a.vat_ledger_number_id)}
    return {
        "expense_types": _table(session, ExpenseType, {a.expense_type_id for a in assignments}),
        "tags": _table(session, Tag, tag_ids),
        "partners": _table(session, Partner, {e.partner_id for e in expenses}),
        "currencies": [{"id": c.id, "name": c.code} for c in
                       _rows(session, Currency, {e.currency_id for e in expenses})],
        "ledger_numbers": [{"id": n.id, "name": n.name, "code": n.code}
                           for n in _rows(session, LedgerNumber, ledger_ids)],
    }


def _rows(session: Session, model, ids: set) -> list:
    ids.discard(None)
    if not ids:
        return []
    return list(session.scalars(select(model).where(model.id.in_(ids)).order_by(model.id)))


def _table(session: Session, model, ids: set) -> list[dict]:
    return [{"id": row.id, "name": row.name} for row in _rows(session, model, ids)]
