"""Query filters of GET /2/expenses (spec 4.3) turned into SQL conditions.

is_paid, is_installment (true/false); updated_since (ISO 8601 timestamp, UTC when no zone,
refused when older than the horizon); date_field (created_at, issued_at, fulfilled_at, due_at;
default issued_at) with from_date / to_date (inclusive); search (custom field values, invoice
number, partner name; case-insensitive substring; search_fields narrows to invoice_number,
custom_fields, partner_name). The live filters are in sandbox/expenses/live_filters.py.
The deprecated /1/ list takes the filters its live description lists (v1_conditions).
"""
from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from sandbox.company.model import Company
from sandbox.core import query
from sandbox.core.errors import validation_error
from sandbox.core.values import BOOL_MSG, DATETIME_MSG, choice_msg
from sandbox.expenses.live_filters import live_conditions, v1_live_conditions
from sandbox.expenses.model import Expense
from sandbox.partners.model import Partner

RESYNC_HORIZON = timedelta(days=90)
SEARCH_FIELDS = ("invoice_number", "custom_fields", "partner_name")
DATE_FIELDS = ("created_at", "issued_at", "fulfilled_at", "due_at")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?"
                       r"(Z|[+-]\d{2}:?\d{2})?)?")
DATETIME_FORMAT_TEXT = f"{DATETIME_MSG} A + in the offset must be URL-encoded as %2B."
TRUE, FALSE = ("true", "True", "1"), ("false", "False", "0")


def invalid_date(name: str):
    """The 400 for a filter value that is no ISO 8601 date or timestamp."""
    return validation_error({name: [DATETIME_FORMAT_TEXT]}, code="invalid_date_format")


def parse_timestamp(name: str, raw: str) -> datetime:
    """An ISO 8601 date or timestamp as naive UTC; no zone means UTC."""
    if not TIMESTAMP.fullmatch(raw):
        raise invalid_date(name)
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):
        raise invalid_date(name) from None
    return value


def conditions(args, session: Session, company: Company) -> list:
    """Every condition the query string asks for, validated (400 on bad values)."""
    found = [Expense.company_id == company.id]
    found += _paid(args) + _updated_since(args) + _date_range(args)
    found += _search(args, session, company) + live_conditions()
    return found


def v1_conditions(args, company: Company) -> list:
    """The conditions of GET /1/expenses: its live filters, the date range read as /2/ reads
    it; any other parameter is ignored (400 on bad values)."""
    return [Expense.company_id == company.id, *_date_range(args), *v1_live_conditions()]


def _boolean(args, name: str) -> bool | None:
    raw = args.get(name)
    if raw in (None, ""):
        return None
    if raw not in TRUE + FALSE:
        raise validation_error({name: [BOOL_MSG]})
    return raw in TRUE


def _paid(args) -> list:
    found = []
    if (paid := _boolean(args, "is_paid")) is not None:
        found.append(Expense.paid_status == 2 if paid else Expense.paid_status != 2)
    if (partial := _boolean(args, "is_installment")) is not None:
        found.append(Expense.paid_status == 3 if partial else Expense.paid_status != 3)
    return found


def _updated_since(args) -> list:
    raw = args.get("updated_since")
    if raw in (None, ""):
        return []
    since = parse_timestamp("updated_since", raw)
    if since < datetime.now(UTC).replace(tzinfo=None) - RESYNC_HORIZON:
        raise validation_error(
            {"updated_since": [f"updated_since is older than {RESYNC_HORIZON.days} days; a full "
                               "resync (a query without updated_since) is required."]})
    return [Expense.updated_at >= since]


def _date_range(args) -> list:
    field = args.get("date_field") or "issued_at"
    if field not in DATE_FIELDS:
        raise validation_error({"date_field": [choice_msg(field)]})
    column = getattr(Expense, field)
    found = []
    for name, is_start in (("from_date", True), ("to_date", False)):
        raw = args.get(name)
        if raw in (None, ""):
            continue
        bound = parse_timestamp(name, raw)
        found.append(_bound(column, field, bound, is_start, date_only=len(raw) == 10))
    return found


def _bound(column, field: str, value: datetime, is_start: bool, date_only: bool):
    if field != "created_at":
        day = value.date()
        return column >= day if is_start else column <= day
    if is_start:
        return column >= value
    # An inclusive to_date given as a day covers that whole day.
    if date_only and value.date() < datetime.max.date():
        return column < datetime.combine(value.date(), time()) + timedelta(days=1)
    return column <= value


def _search(args, session: Session, company: Company) -> list:
    fields = _search_fields()
    needle = (args.get("search") or "").strip().casefold()
    if not needle:
        return []
    found = []
    if "partner_name" in fields:
        names = session.execute(select(Partner.id, Partner.name)
                                .where(Partner.company_id == company.id)).all()
        # Partner names are matched in Python: SQLite's LIKE folds ASCII case only.
        partner_ids = [pk for pk, name in names if needle in (name or "").casefold()]
        found.append(Expense.partner_id.in_(partner_ids))
    if "invoice_number" in fields:
        found.append(func.instr(func.lower(Expense.invoice_number), needle) > 0)
    if "custom_fields" in fields:
        # search_text is casefolded on save, so a substring test is exact (no LIKE wildcards).
        found.append(func.instr(Expense.search_text, needle) > 0)
    return [or_(*found)]


def _search_fields() -> tuple[str, ...]:
    fields = tuple(query.values("search_fields")) or SEARCH_FIELDS
    unknown = [f for f in fields if f not in SEARCH_FIELDS]
    if unknown:
        raise validation_error({"search_fields": [f"Unknown field: {unknown[0]}."]})
    return fields
