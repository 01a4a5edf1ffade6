"""Monthly groupings of taxes and salaries (spec 2.10): filters, records and month totals."""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from itertools import groupby

from flask import request
from sqlalchemy import Select, select
from sqlalchemy.orm import selectinload

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.model import money_str, rate_str
from sandbox.core.query import flag
from sandbox.core.values import FieldError, parse_iso_date
from sandbox.taxes.rules import Kind
from sandbox.taxes.values import SOURCES, TAX_CODES

EDITABLE = ("month", "amount", "paid_status", "code", "name", "account_number", "description",
            "tags", "simple_tags", "title", "due_at", "exchange_rate", "external_id")
SALARY_EDITABLE = ("tax_number",)


def filtered(kind: Kind, company_id: int) -> Select:
    """The company's records narrowed by from_date, to_date, is_paid, is_installment, source."""
    model = kind.model
    stmt = select(model).where(model.company_id == company_id).options(
        selectinload(model.tags), selectinload(model.simple_tags))
    start, end = _date_arg("from_date"), _date_arg("to_date")
    if start:
        stmt = stmt.where(model.month >= start.replace(day=1))
    if end:
        stmt = stmt.where(model.month <= end)
    is_paid, installment = flag("is_paid"), flag("is_installment")
    if is_paid is not None:
        stmt = stmt.where((model.paid_status == 2) if is_paid else (model.paid_status != 2))
    if installment is not None:
        stmt = stmt.where((model.paid_status == 3) if installment else (model.paid_status != 3))
    sources = _sources()
    if sources:
        stmt = stmt.where(model.source.in_(sources))
    return stmt


def wants_detail(kind: Kind) -> bool:
    """True when ?fields= names the records (taxes / salaries)."""
    return kind.records in request.args.get("fields", "").split(",")


def monthly(records: list, kind: Kind, detail: bool) -> dict:
    """{monthly_key: [months, newest first], tags: [{id, name}] of the tags the records use}."""
    records = sorted(records, key=lambda r: (r.month, r.id), reverse=True)
    months = [_month(month, sorted(group, key=lambda r: r.id), kind, detail)
              for month, group in groupby(records, key=lambda r: r.month)]
    return {kind.monthly_key: months, "tags": tag_lookup(records)}


def record_json(record, kind: Kind) -> dict:
    """One tax or salary: the spec's fields (source, description, tags, editable_fields) and
    the live ones (title, due_at, currency code, exchange_rate, external_id)."""
    name, account = record.name, record.account_number
    if record.code in TAX_CODES:
        name, account = TAX_CODES[record.code]
    body = {"id": record.id, "month": record.month.isoformat(),
            "amount": money_str(record.amount), "paid_status": record.paid_status,
            "code": record.code, "name": name, "account_number": account,
            "source": record.source, "description": record.description,
            "tags": [t.id for t in record.tags],
            "simple_tags": [t.id for t in record.simple_tags],
            "title": _iso(record.title), "due_at": _iso(record.due_at),
            "currency": db().get(Company, record.company_id).default_currency.code,
            "exchange_rate": rate_str(record.exchange_rate or 1),
            "external_id": record.external_id}
    if kind.is_salary:
        body["tax_number"] = record.tax_number
    body["editable_fields"] = editable_fields(record, kind)
    return body


def editable_fields(record, kind: Kind) -> list[str]:
    """Synced records accept only tag changes; manual ones everything."""
    if record.synced:
        return ["tags"]
    return list(EDITABLE + (SALARY_EDITABLE if kind.is_salary else ()))


def tag_lookup(records: list) -> list[dict]:
    """{id, name} of every tag the records carry, by name."""
    tags = {t.id: t for r in records for t in (*r.tags, *r.simple_tags)}
    return [{"id": t.id, "name": t.name}
            for t in sorted(tags.values(), key=lambda t: (t.name.casefold(), t.id))]


def _month(month: date, records: list, kind: Kind, detail: bool) -> dict:
    body = {"month": month.isoformat(),
            "amount": money_str(sum((r.amount for r in records), Decimal(0))),
            "paid_status": _paid_status(records), "count": len(records)}
    if kind.is_salary:
        due = [r.due_at for r in records if r.due_at]
        body["due_at"] = min(due).isoformat() if due else None
    if detail:
        body[kind.records] = [record_json(r, kind) for r in records]
        body["tags"] = tag_lookup(records)
    return body


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _paid_status(records: list) -> int:
    statuses = {r.paid_status for r in records}
    return statuses.pop() if len(statuses) == 1 and statuses <= {1, 2} else 3


def _date_arg(name: str) -> date | None:
    raw = request.args.get(name)
    if not raw:
        return None
    try:
        return parse_iso_date(raw)
    except FieldError as exc:
        raise validation_error({name: [str(exc)]}) from None


def _sources() -> list[str]:
    raw = request.args.get("source")
    if not raw:
        return []
    values = [v.strip() for v in raw.split(",") if v.strip()]
    unknown = [v for v in values if v not in SOURCES]
    if unknown:
        raise validation_error({"source": [
            f'Select a valid choice. {unknown[0]} is not one of the available choices.']})
    return values
