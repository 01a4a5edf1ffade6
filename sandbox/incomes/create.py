"""POST /2/incomes/create/ (spec 4.2 create rules 1-4, spec 3 storno rows).

Everything is validated before anything is added, and the request is one transaction, so a
create that fails anywhere (e.g. on its third assignment) stores nothing.
"""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select

from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.model import budapest_today
from sandbox.core.values import REQUIRED_MSG, int_or_none
from sandbox.incomes.image import build_artifact
from sandbox.incomes.lines import build_assignment, parse_assignments, parse_items
from sandbox.incomes.model import MANUAL_SOURCES, Income
from sandbox.incomes.payload import parse_header, tags_by_id
from sandbox.incomes.periods import apply_cancellation, recalc_payments, touch
from sandbox.incomes.rules import (
    check_accounting_period,
    check_exchange,
    check_settings,
    check_vat_period,
)
from sandbox.partners.model import Partner

REQUIRED = ("invoice_number", "issued_at", "net_amount", "gross_amount")
PARTNER_COPY = {"partner_name": "name", "partner_zip_code": "zip_code", "partner_city": "city",
                "partner_address": "address", "partner_country": "country",
                "partner_tax_number": "tax_number",
                "partner_account_number": "default_account_number"}
DUPLICATE_MSG = "An income with this invoice number already exists."


def create_income(data: dict, image: tuple[str, bytes] | None, company: Company) -> Income:
    """Validate the whole payload, then add the income with its parts; stornos cancel."""
    errors: dict = {}
    if int_or_none(data.get("income_type", 2)) != 2:
        errors["income_type"] = ["Only accounting documents (income_type 2) can be created."]
    values = parse_header(data, company, errors)
    _check_required(data, values, errors)
    assignments = parse_assignments(data.get("assignments"), company, errors) \
        if "assignments" in data else None
    items = parse_items(data["items"], errors) if data.get("items") is not None else []
    artifact = build_artifact(image, errors) if image else None
    _check_rules(data, values, company, errors)
    if errors:
        raise validation_error(errors)
    _check_duplicate(values["invoice_number"], company)
    income = _build(values, company)
    income.assignments = [build_assignment(row, i) for i, row in enumerate(assignments)]
    income.items, income.artifact = items, artifact
    db().add(income)
    db().flush()
    if income.invoice_type == 1:
        cancel_original(income, company)
    return income


def _check_required(data: dict, values: dict, errors: dict) -> None:
    for key in REQUIRED:
        if key not in data and key not in errors:
            errors[key] = [REQUIRED_MSG]
    if "assignments" not in data:
        errors["assignments"] = [REQUIRED_MSG]
    if values.get("invoice_type") == 1 and not values.get("referred_invoice_number") and \
            "referred_invoice_number" not in errors:  # a refused number keeps its own message
        errors["referred_invoice_number"] = ["A storno (invoice_type 1) needs the number of "
                                             "the document it cancels."]


def _check_rules(data: dict, values: dict, company: Company, errors: dict) -> None:
    currency = values.get("currency", company.default_currency_id)
    check_exchange(currency, values.get("exchange_rate"), company, errors)
    check_accounting_period(data, values, errors)
    check_settings(values, company, booked=False, errors=errors)
    check_vat_period(data, values, errors)


def _check_duplicate(number: str, company: Company) -> None:
    existing = db().scalar(select(Income.id).where(
        Income.company_id == company.id, Income.invoice_number == number).order_by(Income.id))
    if existing is not None:
        raise validation_error({"invoice_number": [DUPLICATE_MSG]}, existing_income_id=existing)


def _build(values: dict, company: Company) -> Income:
    tags, simple = values.pop("tags", []), values.pop("simple_tags", [])
    cancelled = values.pop("is_cancelled", False)
    income = Income(company_id=company.id, type=2, source="api", invoice_type=0,
                    currency_id=values.pop("currency", company.default_currency_id),
                    exchange_rate=values.pop("exchange_rate", Decimal(1)), vat_area="HU",
                    paid_amount=Decimal(0), payments=[])
    for key, value in values.items():
        setattr(income, key, value)
    _defaults(income)
    income.tags, income.simple_tags = tags_by_id(tags), tags_by_id(simple)
    if cancelled:
        apply_cancellation(income, True, income.issued_at or budapest_today())
    else:
        recalc_payments(income)
    return income


def _defaults(income: Income) -> None:
    income.fulfilled_at = income.fulfilled_at or income.issued_at
    income.due_at = income.due_at or income.issued_at
    if income.vat_amount is None:
        income.vat_amount = income.gross_amount - income.net_amount
    if income.partner_id is not None:
        partner = db().get(Partner, income.partner_id)
        for key, attr in PARTNER_COPY.items():
            if getattr(income, key) is None:
                setattr(income, key, getattr(partner, attr))


def cancel_original(storno: Income, company: Company) -> list[Income]:
    """Cancel the accounting documents the storno refers to; synced invoices never match."""
    originals = db().scalars(select(Income).where(
        Income.company_id == company.id, Income.type == 2, Income.id != storno.id,
        Income.invoice_number == storno.referred_invoice_number,
        Income.source.in_(MANUAL_SOURCES))).all()
    for original in originals:
        apply_cancellation(original, True, storno.issued_at or budapest_today())
        touch(original)
    return list(originals)
