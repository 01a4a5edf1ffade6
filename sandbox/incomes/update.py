"""PATCH /2/incomes/{id}/update/ (spec 4.2 update rules 1-7).

A field the income does not allow now (see incomes_editable) answers 400 naming it, under its
own key and in `not_editable_fields`. Unknown keys and read-only fields are ignored, as DRF does.
"""
from __future__ import annotations

from decimal import Decimal

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.model import budapest_today
from sandbox.incomes.assign_locked import revenue_types_only
from sandbox.incomes.create import PARTNER_COPY
from sandbox.incomes.lines import build_assignment, parse_assignments
from sandbox.incomes.model import Income
from sandbox.incomes.payload import parse_header, tags_by_id
from sandbox.incomes.periods import apply_cancellation, touch
from sandbox.incomes.rules import (
    EVERY_FIELD,
    GROUP_D,
    check_accounting_period,
    check_exchange,
    check_settings,
    check_vat_period,
    income_fields,
    income_groups,
)
from sandbox.partners.model import Partner

SPECIAL = ("tags", "simple_tags", "assignments", "is_cancelled", "currency", "exchange_rate")


def lock_reason(income: Income, company: Company, field: str) -> str:
    """Why a field cannot be edited on this income now."""
    if field == "accounting_id" and not company.enable_accounting_id:
        return "Not editable: the company setting enable_accounting_id is off."
    if field.startswith("vat_period") and not company.enable_vat_period:
        return "Not editable: the company setting enable_vat_period is off."
    if income.is_booked:
        return "Not editable: the income is booked."
    if income.is_processed:
        return "Not editable: the income is processed."
    if income.type == 1 and income.synced:
        return f"Not editable: the invoice is synced from {income.source}."
    return f"Not editable on an income of type {income.type}."


def update_income(income: Income, data: dict, company: Company) -> Income:
    """Apply a partial update after checking editability and every cross-field rule."""
    sent = [key for key in data if key in EVERY_FIELD]
    allowed = set(income_fields(income, company))
    locked = [key for key in sent if key not in allowed]
    if locked:
        raise validation_error({key: [lock_reason(income, company, key)] for key in locked},
                               not_editable_fields=locked)
    errors: dict = {}
    values = parse_header({k: data[k] for k in sent if k != "assignments"}, company, errors)
    _check_rules(income, data, values, company, errors)
    assignments = _assignments(income, data, company, errors)
    if errors:
        raise validation_error(errors)
    _apply(income, values, company)
    if assignments is not None:
        income.assignments = assignments
    if sent:
        touch(income)
    return income


def _check_rules(income: Income, data: dict, values: dict, company: Company,
                 errors: dict) -> None:
    if values.get("currency") == company.default_currency_id and "exchange_rate" not in values:
        values["exchange_rate"] = Decimal(1)  # back to the default currency: rate 1 again
    if "currency" in values or "exchange_rate" in values:
        check_exchange(values.get("currency", income.currency_id),
                       values.get("exchange_rate", income.exchange_rate), company, errors)
    check_accounting_period(data, values, errors)
    check_settings(values, company, income.is_booked, errors)
    check_vat_period(data, values, errors)


def _assignments(income: Income, data: dict, company: Company, errors: dict):
    if "assignments" not in data:
        return None
    if income_groups(income) == GROUP_D:
        revenue_types_only(income, data["assignments"], company, errors)
        return None
    rows = parse_assignments(data["assignments"], company, errors)
    return None if rows is None else [build_assignment(r, i) for i, r in enumerate(rows)]


def _apply(income: Income, values: dict, company: Company) -> None:
    for key in ("tags", "simple_tags"):
        if key in values:
            setattr(income, key, tags_by_id(values[key]))
    if "currency" in values:
        income.currency_id = values["currency"]
    if "exchange_rate" in values:
        income.exchange_rate = values["exchange_rate"]
    if income.type == 1:
        values.pop("partner_account_number", None)
    for key, value in values.items():
        if key not in SPECIAL:
            setattr(income, key, value)
    _derived(income, values)


def _derived(income: Income, values: dict) -> None:
    if income.type in (6, 7) and "fulfilled_at" in values:
        income.issued_at = income.due_at = values["fulfilled_at"]
    if "vat_amount" not in values and ({"net_amount", "gross_amount"} & values.keys()):
        income.vat_amount = income.gross_amount - income.net_amount
    if values.get("partner_id") is not None:
        partner = db().get(Partner, values["partner_id"])
        for key, attr in PARTNER_COPY.items():
            if key not in values and not (key == "partner_account_number" and income.type == 1):
                setattr(income, key, getattr(partner, attr))
    if "is_cancelled" in values and values["is_cancelled"] != income.is_cancelled:
        apply_cancellation(income, values["is_cancelled"], budapest_today())
