"""The body of POST /_sandbox/import-income/: an invoice as invoicing software sends it.

{"source": "szamlazz.hu", "type": 1, "invoice_number": "...", "issued_at": "2026-03-01",
 "partner": {"name", "tax_number", "zip_code", "city", "address", "country"} (or the flat
 partner_* fields), "net_amount", "vat_amount", "gross_amount", "currency": "EUR" or an id,
 "exchange_rate", "fulfilled_at", "due_at", "payment_method", "vat_area", "note",
 "items": [...], "assignments": [...] (optional; policies see them)}
"""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.values import REQUIRED_MSG, FieldError, parse_text
from sandbox.incomes.lines import build_assignment, parse_assignments, parse_items
from sandbox.incomes.model import MANUAL_SOURCES, Income
from sandbox.incomes.payload import parse_header, tags_by_id
from sandbox.incomes.periods import recalc_payments
from sandbox.incomes.rules import check_exchange
from sandbox.partners.model import Partner
from sandbox.partners.rules import normalise_tax_number

IMPORT_TYPES = (1, 6, 7)
DEFAULT_SOURCE = "szamlazz.hu"
REQUIRED = ("invoice_number", "issued_at", "net_amount", "gross_amount")
PARTNER_KEYS = ("name", "tax_number", "zip_code", "city", "address", "country")
DUPLICATE_MSG = "This invoice was already imported from this source."


def build_invoice(data: dict, company: Company) -> Income:
    """A validated, not yet stored income from an import body (400 on any problem)."""
    errors: dict = {}
    data = _normalised(data, errors)
    kind, source = _kind(data, errors), _source(data, errors)
    values = parse_header(data, company, errors)
    errors.update({k: [REQUIRED_MSG] for k in REQUIRED if k not in data and k not in errors})
    items = parse_items(data.get("items") or [], errors) or []
    rows = parse_assignments(data["assignments"], company, errors) \
        if data.get("assignments") else []
    check_exchange(values.get("currency", company.default_currency_id),
                   values.get("exchange_rate"), company, errors)
    if errors:
        raise validation_error(errors)
    _check_duplicate(company, values["invoice_number"], source)
    income = _income(values, company, kind, source)
    income.items = items
    income.assignments = [build_assignment(row, i) for i, row in enumerate(rows or [])]
    return income


def _normalised(data: dict, errors: dict) -> dict:
    """Flatten a partner object and turn a currency code into its id."""
    data = dict(data)
    partner = data.pop("partner", None)
    if isinstance(partner, dict):
        for key in PARTNER_KEYS:
            data.setdefault(f"partner_{key}", partner.get(key))
    currency = data.get("currency")
    if isinstance(currency, str) and not currency.strip().isdecimal():
        found = db().scalar(select(Currency.id).where(Currency.code == currency.strip().upper()))
        if found is None:
            errors["currency"] = [f"Unknown currency code: {currency}."]
        data["currency"] = found
    return data


def _kind(data: dict, errors: dict) -> int:
    kind = data.get("type", 1)
    if kind not in IMPORT_TYPES or isinstance(kind, bool):
        errors["type"] = [f"An import is an invoice or a receipt: one of {IMPORT_TYPES}."]
    return kind


def _source(data: dict, errors: dict) -> str:
    try:
        source = parse_text(data.get("source", DEFAULT_SOURCE), 40, nullable=False)
    except FieldError as exc:
        errors["source"] = [str(exc)]
        return DEFAULT_SOURCE
    if source in MANUAL_SOURCES:
        errors["source"] = ["An import comes from an integration, not manual or api."]
    return source


def _check_duplicate(company: Company, number: str, source: str) -> None:
    existing = db().scalar(select(Income.id).where(
        Income.company_id == company.id, Income.invoice_number == number,
        Income.source == source).order_by(Income.id))
    if existing is not None:
        raise validation_error({"invoice_number": [DUPLICATE_MSG]}, existing_income_id=existing)


def _income(values: dict, company: Company, kind: int, source: str) -> Income:
    tags, simple = values.pop("tags", []), values.pop("simple_tags", [])
    values.pop("is_cancelled", None)
    income = Income(company_id=company.id, type=kind, source=source, invoice_type=0,
                    currency_id=values.pop("currency", company.default_currency_id),
                    exchange_rate=values.pop("exchange_rate", Decimal(1)), vat_area="HU",
                    paid_amount=Decimal(0), payments=[], needs_review=False, review_done=False)
    for key, value in values.items():
        setattr(income, key, value)
    income.fulfilled_at = income.fulfilled_at or income.issued_at
    income.due_at = income.due_at or income.issued_at
    if income.vat_amount is None:
        income.vat_amount = income.gross_amount - income.net_amount
    income.tags, income.simple_tags = tags_by_id(tags), tags_by_id(simple)
    recalc_payments(income)
    return income


def attach_partner(session: Session, income: Income, company: Company) -> None:
    """Link the income to the partner with its tax number (or name); create one if none."""
    if income.partner_id is not None or not income.partner_name:
        return
    tax_number = normalise_tax_number(income.partner_tax_number)
    match = Partner.tax_number == tax_number if tax_number else Partner.name == income.partner_name
    partner = session.scalar(select(Partner).where(Partner.company_id == company.id, match)
                             .order_by(Partner.id))
    if partner is None:
        partner = Partner(company_id=company.id, name=income.partner_name,
                          tax_number=tax_number, zip_code=income.partner_zip_code,
                          city=income.partner_city, address=income.partner_address,
                          country=income.partner_country, is_customer=True,
                          source=income.source)
        session.add(partner)
        session.flush()
    income.partner_id = partner.id
