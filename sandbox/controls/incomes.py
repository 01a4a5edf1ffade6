"""Sandbox-only income controls: a fixture maker for any type and state, and state changes.

POST  /_sandbox/incomes/        {"company_id": 5, "type": 1|2|6|7, "source": "szamlazz.hu",
                                 "is_processed": false, "is_booked": false, "payments":
                                 [{"paid_at": "2025-01-10", "amount": "500.00"}], ...any field
                                 of the public create}. Rules are not applied: duplicate numbers
                                 and assignments with "revenue_type": null are allowed; without
                                 "assignments" one mirroring the totals is added. 201 + detail.
PATCH /_sandbox/incomes/<id>/   (or POST .../state/) any of is_processed, is_booked, source,
                                 needs_review, review_done, is_cancelled, payments, and the
                                 live-only integration_payment_method and user_saw (an ISO
                                 timestamp: when a user opened it in the web app). 200 + detail.
"""
from __future__ import annotations

import secrets
from decimal import Decimal

from flask import jsonify

from sandbox.catalog.model import RevenueType
from sandbox.catalog.rules import NOT_JSON_OBJECT, json_object
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import not_found, validation_error
from sandbox.core.model import budapest_today
from sandbox.core.values import (
    FieldError,
    collect,
    parse_bool,
    parse_date,
    parse_money,
    parse_text,
    parse_timestamp,
)
from sandbox.incomes.detail import detail_json, load_income
from sandbox.incomes.lines import build_assignment, parse_assignment, parse_items
from sandbox.incomes.model import INCOME_TYPES, Income, IncomePayment
from sandbox.incomes.payload import parse_header, tags_by_id
from sandbox.incomes.periods import apply_cancellation, recalc_payments, touch

STATE_PARSERS = {"is_processed": parse_bool, "is_booked": parse_bool, "needs_review": parse_bool,
                 "review_done": parse_bool, "source": lambda v: parse_text(v, 40, False),
                 "integration_payment_method": lambda v: parse_text(v, 60),
                 "user_saw": parse_timestamp}


def make_income():
    """Create an income of any type in any state for tests (no business rules)."""
    data = json_object(NOT_JSON_OBJECT)
    company = db().get(Company, data.get("company_id") or 0)
    if company is None:
        raise validation_error({"company_id": ["Unknown company."]})
    errors: dict = {}
    income = _header(data, company, errors)
    income.assignments = _assignments(data, income, company, errors)
    income.items = parse_items(data.get("items") or [], errors) or []
    _set_state(income, data, errors)
    if errors:
        raise validation_error(errors)
    db().add(income)
    db().flush()
    return jsonify(detail_json(load_income(income.id, company), company)), 201


def change_income_state(income_id: int):
    """Mark processed / booked / synced, set review flags, cancel, replace payments."""
    income = db().get(Income, income_id)
    if income is None:
        raise not_found()
    company = db().get(Company, income.company_id)
    income = load_income(income_id, company)
    errors: dict = {}
    _set_state(income, json_object(NOT_JSON_OBJECT), errors)
    if errors:
        raise validation_error(errors)
    touch(income)
    return jsonify(detail_json(income, company, {"accounting", "payment_history"}))


def _header(data: dict, company: Company, errors: dict) -> Income:
    kind = data.get("type", 2)
    if kind not in INCOME_TYPES:
        errors["type"] = [f"One of {INCOME_TYPES}."]
    values = parse_header(data, company, errors)
    today = budapest_today()
    income = Income(company_id=company.id, type=kind, invoice_type=0, source="manual",
                    invoice_number=f"SBX-{today:%Y%m%d}-{secrets.token_hex(3)}",
                    issued_at=today, fulfilled_at=today, due_at=today,
                    currency_id=company.default_currency_id, exchange_rate=Decimal(1),
                    net_amount=Decimal("1000.00"), vat_amount=Decimal("270.00"),
                    gross_amount=Decimal("1270.00"), vat_area="HU", paid_amount=Decimal(0),
                    paid_status=1, payments=[], partner_name="Teszt Partner Kft.")
    tags, simple = values.pop("tags", []), values.pop("simple_tags", [])
    income.currency_id = values.pop("currency", income.currency_id)
    values.pop("is_cancelled", None)
    for key, value in values.items():
        setattr(income, key, value)
    if "vat_amount" not in values:
        income.vat_amount = income.gross_amount - income.net_amount
    income.tags, income.simple_tags = tags_by_id(tags), tags_by_id(simple)
    return income


def _assignments(data: dict, income: Income, company: Company, errors: dict) -> list:
    if "assignments" not in data:
        first = db().query(RevenueType).filter_by(company_id=company.id).order_by(
            RevenueType.id).first()
        data = {"assignments": [{"revenue_type": first.id if first else None}]}
    rows, nested = [], []
    for position, item in enumerate(data["assignments"] or []):
        item = {"net_amount": str(income.net_amount), "gross_amount": str(income.gross_amount),
                **item}
        values, item_errors = parse_assignment(item, company)
        if item.get("revenue_type") is None:
            item_errors.pop("revenue_type", None)
            values["revenue_type"] = None
        nested.append(item_errors)
        rows.append(build_assignment(values, position) if not item_errors else None)
    if any(nested):
        errors["assignments"] = nested
    return [row for row in rows if row is not None]


def _set_state(income: Income, data: dict, errors: dict) -> None:
    for key, value in collect(data, STATE_PARSERS, errors).items():
        setattr(income, key, value)
    if "payments" in data:
        income.payments[:] = _payments(data["payments"], errors)
    recalc_payments(income)
    if "is_cancelled" in data:
        try:
            apply_cancellation(income, parse_bool(data["is_cancelled"]), budapest_today())
        except FieldError as exc:
            errors["is_cancelled"] = [str(exc)]


def _payments(raw, errors: dict) -> list[IncomePayment]:
    try:
        return [IncomePayment(paid_at=parse_date(p.get("paid_at")) or budapest_today(),
                              amount=parse_money(p.get("amount")), method=p.get("method"))
                for p in raw]
    except (FieldError, AttributeError, TypeError) as exc:
        errors["payments"] = [str(exc) or "Invalid payments."]
        return []
