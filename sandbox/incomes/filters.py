"""Query filters and ordering of GET /1/incomes.

Filters (all optional, combined with AND):
- from_date, to_date: inclusive dates (YYYY-MM-DD; an ISO datetime is cut to its date) on the
  field named by date_field: issued_at (default), fulfilled_at, due_at or created_at.
  Aliases: <field>_from / <field>_to for each of those fields (e.g. issued_at_from=2025-01-01).
  A value that is not a date: 400 naming the parameter.
- paid_status: 1 not paid, 2 paid, 3 partially paid; a comma list is taken.
- needs_review, review_done, is_cancelled, is_overdue: true/false.
- type: 1, 2, 6, 7 (comma list); invoice_type: 0 or 1.
- partner: partner id. currency: currency id or ISO code. source: manual, api, szamlazz.hu...
- invoice_number: exact. search: case-insensitive text in invoice_number or partner_name.
- ordering: issued_at, fulfilled_at, due_at, invoice_number, gross_amount, partner_name, id,
  created_at, with "-" for descending; a comma list is taken; unknown names are ignored (DRF).
  Default -issued_at; id breaks ties.
"""
from __future__ import annotations

from datetime import date, datetime, time

from flask import request
from sqlalchemy import Select, or_, select

from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core.errors import validation_error
from sandbox.incomes.model import Income
from sandbox.incomes.values import FieldError, parse_bool, parse_date

DATE_FIELDS = ("issued_at", "fulfilled_at", "due_at", "created_at")
ORDERING = ("issued_at", "fulfilled_at", "due_at", "invoice_number", "gross_amount",
            "partner_name", "id", "created_at")
BOOLEANS = ("needs_review", "review_done", "is_cancelled")
INT_LISTS = {"paid_status": Income.paid_status, "type": Income.type,
             "invoice_type": Income.invoice_type, "partner": Income.partner_id}


def income_query(company: Company) -> Select:
    """The filtered, ordered select of the company's income ids for this request."""
    stmt = select(Income.id).where(Income.company_id == company.id)
    errors: dict = {}
    stmt = _date_filters(stmt, errors)
    stmt = _simple_filters(stmt, errors)
    if errors:
        raise validation_error(errors)
    return stmt.order_by(*_ordering())


def _date_filters(stmt: Select, errors: dict) -> Select:
    field = request.args.get("date_field") or "issued_at"
    if field not in DATE_FIELDS:
        errors["date_field"] = [f"Select a valid choice. {field} is not one of the available "
                                "choices."]
        return stmt
    bounds = [(field, "from_date", True), (field, "to_date", False)]
    bounds += [(name, f"{name}_{end}", end == "from") for name in DATE_FIELDS
               for end in ("from", "to")]
    for name, param, lower in bounds:
        if request.args.get(param):
            stmt = _bound(stmt, name, param, lower, errors)
    return stmt


def _bound(stmt: Select, field: str, param: str, lower: bool, errors: dict) -> Select:
    try:
        day = parse_date(request.args[param], nullable=False)
    except FieldError as exc:
        errors[param] = [str(exc)]
        return stmt
    column = getattr(Income, field)
    if field == "created_at":
        day = datetime.combine(day, time.min if lower else time.max)
    return stmt.where(column >= day if lower else column <= day)


def _simple_filters(stmt: Select, errors: dict) -> Select:
    args = request.args
    for name in BOOLEANS + ("is_overdue",):
        if args.get(name):
            try:
                value = parse_bool(args[name])
            except FieldError as exc:
                errors[name] = [str(exc)]
                continue
            stmt = stmt.where(_overdue(value) if name == "is_overdue"
                              else getattr(Income, name).is_(value))
    for name, column in INT_LISTS.items():
        if args.get(name):
            values = _int_list(args[name], name, errors)
            stmt = stmt.where(column.in_(values)) if values else stmt
    return _text_filters(stmt, errors)


def _overdue(value: bool):
    overdue = (Income.paid_status != 2) & (Income.due_at < date.today())
    return overdue if value else ~overdue


def _int_list(raw: str, name: str, errors: dict) -> list[int]:
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    if not all(p.isdecimal() for p in parts):
        errors[name] = ["Enter a whole number."]
        return []
    return [int(p) for p in parts]


def _text_filters(stmt: Select, errors: dict) -> Select:
    args = request.args
    if args.get("invoice_number"):
        stmt = stmt.where(Income.invoice_number == args["invoice_number"])
    if args.get("source"):
        stmt = stmt.where(Income.source == args["source"])
    if args.get("search"):
        pattern = f"%{args['search'].strip()}%"
        stmt = stmt.where(or_(Income.invoice_number.ilike(pattern),
                              Income.partner_name.ilike(pattern)))
    if args.get("currency"):
        raw = args["currency"].strip()
        currency = (Income.currency_id == int(raw) if raw.isdecimal() else
                    Income.currency_id.in_(select(Currency.id).where(
                        Currency.code == raw.upper())))
        stmt = stmt.where(currency)
    return stmt


def _ordering() -> list:
    keys, descending = [], True
    for part in (request.args.get("ordering") or "").split(","):
        name, desc = part.strip().lstrip("-"), part.strip().startswith("-")
        if name in ORDERING:
            column = getattr(Income, name)
            keys.append(column.desc() if desc else column.asc())
            descending = desc
    if not keys:
        keys, descending = [Income.issued_at.desc()], True
    keys.append(Income.id.desc() if descending else Income.id.asc())
    return keys
