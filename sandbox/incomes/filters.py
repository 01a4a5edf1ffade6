"""Query filters and ordering of GET /1/incomes.

Filters (all optional, combined with AND). A multi-value filter takes repeated keys
(`tags=1&tags=2`), comma lists (`tags=1,2`) or both, and matches any of the values:
- from_date, to_date: inclusive dates (YYYY-MM-DD; an ISO datetime is cut to its date) on the
  field named by date_field: issued_at (default), fulfilled_at, due_at or created_at.
  Aliases: <field>_from / <field>_to for each of those fields (e.g. issued_at_from=2025-01-01).
  due_at=<date>: due on that day. A value that is not a date: 400 naming the parameter.
- paid_status (1 not paid, 2 paid, 3 partially paid), type (1, 2, 6, 7), invoice_type (0, 1),
  partner (partner ids), revenue_types (an assignment has one of them), tags (the income, its
  simple tags or one of its assignments carries one of them): multi-value integers.
- payment_method: multi-value, transfer, cash, card or cod.
- needs_review, review_done, is_cancelled: true/false.
- is_overdue / is_expired (the live name): not fully paid and due before today;
  is_due_soon: not fully paid, not cancelled and due today or within DUE_SOON_DAYS.
- currency: currency ids or ISO codes (multi-value). source: manual, api, szamlazz.hu...
- invoice_number: exact. search: case-insensitive text in invoice_number or partner_name.
- ordering: issued_at, fulfilled_at, due_at, invoice_number, gross_amount, partner_name, id,
  created_at, with "-" for descending; a comma list is taken; unknown names are ignored (DRF).
  Default -issued_at; id breaks ties.
Unknown parameters are ignored, as live ignores them.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta

from flask import request
from sqlalchemy import Select, or_, select

from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core import query
from sandbox.core.errors import validation_error
from sandbox.core.model import budapest_today
from sandbox.core.values import FieldError, parse_date
from sandbox.incomes.model import (
    Income,
    IncomeAssignment,
    assignment_tag,
    income_simple_tag,
    income_tag,
)
from sandbox.incomes.payload import PAYMENT_METHODS

DATE_FIELDS = ("issued_at", "fulfilled_at", "due_at", "created_at")
ORDERING = ("issued_at", "fulfilled_at", "due_at", "invoice_number", "gross_amount",
            "partner_name", "id", "created_at")
BOOLEANS = {"needs_review": Income.needs_review, "review_done": Income.review_done,
            "is_cancelled": Income.is_cancelled}
INT_LISTS = {"paid_status": Income.paid_status, "type": Income.type,
             "invoice_type": Income.invoice_type, "partner": Income.partner_id}
DUE_SOON_DAYS = 7


def income_query(company: Company) -> Select:
    """The filtered, ordered select of the company's income ids for this request."""
    stmt = select(Income.id).where(Income.company_id == company.id)
    errors: dict = {}
    stmt = _date_filters(stmt, errors)
    if errors:
        raise validation_error(errors)
    return _simple_filters(stmt).order_by(*_ordering())


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


def _simple_filters(stmt: Select) -> Select:
    for name, column in BOOLEANS.items():
        if (value := query.flag(name)) is not None:
            stmt = stmt.where(column.is_(value))
    for name in ("is_overdue", "is_expired"):
        if (value := query.flag(name)) is not None:
            stmt = stmt.where(_overdue(value))
    if (value := query.flag("is_due_soon")) is not None:
        stmt = stmt.where(_due_soon(value))
    for name, column in INT_LISTS.items():
        if values := query.integers(name):
            stmt = stmt.where(column.in_(values))
    return _reference_filters(stmt)


def _overdue(value: bool):
    overdue = (Income.paid_status != 2) & (Income.due_at < budapest_today())
    return overdue if value else ~overdue


def _due_soon(value: bool):
    today = budapest_today()
    soon = ((Income.paid_status != 2) & Income.is_cancelled.is_(False)
            & Income.due_at.between(today, today + timedelta(days=DUE_SOON_DAYS)))
    return soon if value else ~soon


def _reference_filters(stmt: Select) -> Select:
    if revenue_types := query.integers("revenue_types"):
        stmt = stmt.where(Income.id.in_(select(IncomeAssignment.income_id).where(
            IncomeAssignment.revenue_type_id.in_(revenue_types))))
    if tags := query.integers("tags"):
        stmt = stmt.where(or_(*[Income.id.in_(ids) for ids in _tagged(tags)]))
    if methods := query.values("payment_method"):
        _check_choices("payment_method", methods, PAYMENT_METHODS)
        stmt = stmt.where(Income.payment_method.in_(methods))
    if due := query.day("due_at"):
        stmt = stmt.where(Income.due_at == due)
    return _text_filters(stmt)


def _tagged(tags: list[int]) -> list[Select]:
    parts = select(IncomeAssignment.income_id).join(
        assignment_tag, assignment_tag.c.assignment_id == IncomeAssignment.id)
    return [select(income_tag.c.income_id).where(income_tag.c.tag_id.in_(tags)),
            select(income_simple_tag.c.income_id).where(income_simple_tag.c.tag_id.in_(tags)),
            parts.where(assignment_tag.c.tag_id.in_(tags))]


def _check_choices(name: str, given: list[str], choices: tuple[str, ...]) -> None:
    for value in given:
        if value not in choices:
            raise validation_error({name: [f"Select a valid choice. {value} is not one of the "
                                           "available choices."]})


def _text_filters(stmt: Select) -> Select:
    if number := query.text("invoice_number"):
        stmt = stmt.where(Income.invoice_number == number)
    if source := query.text("source"):
        stmt = stmt.where(Income.source == source)
    if search := query.text("search"):
        stmt = stmt.where(or_(query.contains(Income.invoice_number, search),
                              query.contains(Income.partner_name, search)))
    if currencies := query.values("currency"):
        ids = [int(c) for c in currencies if c.isdecimal()]
        codes = [c.upper() for c in currencies if not c.isdecimal()]
        stmt = stmt.where(or_(Income.currency_id.in_(ids), Income.currency_id.in_(
            select(Currency.id).where(Currency.code.in_(codes)))))
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
