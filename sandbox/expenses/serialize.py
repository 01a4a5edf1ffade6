"""JSON shapes of expenses: the fields list and detail share, and the detail record."""
from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import object_session

from sandbox.bank.rules import paying_accounts
from sandbox.core.model import money_str, rate_str
from sandbox.expenses.model import Expense, ExpenseAssignment, ExpenseItem


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


def common_fields(e: Expense, tag_ids: list[int], simple_tag_ids: list[int]) -> dict:
    """The fields list and detail records share."""
    data = {
        "id": e.id, "invoice_number": e.invoice_number, "filing_number": e.filing_number,
        "issued_at": iso(e.issued_at), "fulfilled_at": iso(e.fulfilled_at),
        "due_at": iso(e.due_at), "created": iso(e.created_at), "created_at": iso(e.created_at),
        "updated_at": iso(e.updated_at), "exchange_rate": rate_str(e.exchange_rate),
        "net_amount": money_str(e.net_amount), "vat_amount": money_str(e.vat_amount),
        "gross_amount": money_str(e.gross_amount), "paid_status": e.paid_status,
        "payment_method": e.payment_method, "vat_area": e.vat_area,
        "secondary_id": e.secondary_id, "accounting_status": e.accounting_status,
        "excluded_from_accounting": e.excluded_from_accounting, "source": e.source,
        "tags": tag_ids, "simple_tags": simple_tag_ids, "has_artifact": e.has_artifact,
        "invoice_class": e.invoice_class, "filing_date": iso(e.created_at.date()),
        "exchange_date": iso(e.exchange_date or e.issued_at), "delivered_at": iso(e.delivered_at),
        "planned_payment_date": iso(e.planned_payment_date or e.due_at),
        "accounting_period_start": iso(e.accounting_period_start),
        "accounting_period_end": iso(e.accounting_period_end), "user_saw": iso(e.user_saw),
        "integration_payment_method": e.integration_payment_method,
        "accounting_id": e.accounting_id, "vat_period_type": e.vat_period_type,
        "vat_period_started_at": iso(e.vat_period_started_at),
    }
    if e.has_artifact:
        data.update(artifact_extension=e.artifact_extension,
                    artifact_filename=e.artifact_filename,
                    artifact_created_at=iso(e.artifact_created_at))
    return data


def partner_fields(partner) -> dict:
    """The partner's address and bank account as the live records repeat them."""
    keys = ("zip_code", "city", "address", "country", "tax_number")
    fields = {f"partner_{key}": getattr(partner, key, None) for key in keys}
    fields["partner_account_number"] = getattr(partner, "default_account_number", None)
    return fields


def item_json(i: ExpenseItem) -> dict:
    """An invoice line with its float vat_percent."""
    return {"id": i.id, "name": i.name, "quantity": f"{i.quantity:.4f}", "unit": i.unit,
            "unit_price": money_str(i.unit_price), "net_amount": money_str(i.net_amount),
            "vat_percent": float(i.vat_percent), "vat_amount": money_str(i.vat_amount),
            "gross_amount": money_str(i.gross_amount)}


def detail_assignment(a: ExpenseAssignment) -> dict:
    """An assignment in a detail: references as objects; ledger refs carry id, name and code."""
    return {"id": a.id, "net_amount": money_str(a.net_amount),
            "vat_amount": money_str(a.vat_amount), "gross_amount": money_str(a.gross_amount),
            "vat": _vat(a.vat), "tags": [{"id": t.id, "name": t.name} for t in a.tags],
            "job_number": a.job_number,
            "expense_type": _ref(a.expense_type),
            "ledger_number": _ref(a.ledger_number, "code"),
            "vat_ledger_number": _ref(a.vat_ledger_number, "code"),
            "company_vat_category": None if a.company_vat_category is None else
            {**_ref(a.company_vat_category), "code": None}}


def detail_record(e: Expense, editable: list[str]) -> dict:
    """The detail record, with editable_fields and the artifact fields when there is one."""
    partner = e.partner
    data = {**common_fields(e, [t.id for t in e.tags], [t.id for t in e.simple_tags]),
            "partner": None if partner is None else
            {"id": partner.id, "name": partner.name, "tax_number": partner.tax_number},
            "partner_name": partner.name if partner else None, **partner_fields(partner),
            "account": paying_accounts(object_session(e), [e.id]).get(e.id),
            "incomplete": e.incomplete,
            "currency": {"id": e.currency.id, "code": e.currency.code, "name": e.currency.name},
            "note": e.note, "processed": e.processed, "checked": e.checked, "booked": e.booked,
            "approved": e.approved, "quarantined": e.quarantined,
            "exported_at": iso(e.exported_at),
            "custom_fields": dict(e.custom_fields or {}),
            "items": [item_json(i) for i in e.items],
            "assignments": [detail_assignment(a) for a in e.assignments],
            "actions": [{"type": a.type, "created_at": iso(a.created_at), "user": a.user_name}
                        for a in e.actions],
            "editable_fields": editable}
    return data
