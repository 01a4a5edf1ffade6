"""Parsing of income write payloads: header fields, references, tags, assignments and items.

Optional income text fields take "" as null (clears); partner text fields are stricter (spec 2.4).
"""
from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy import select

from sandbox.catalog.model import Currency, Tag
from sandbox.company.model import Company
from sandbox.core.db import db
from sandbox.core.values import (
    FieldError,
    collect,
    parse_bool,
    parse_choice,
    parse_date,
    parse_int,
    parse_money,
    parse_rate,
    parse_text,
)
from sandbox.incomes.periods import VAT_PERIOD_TYPES
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

PAYMENT_METHODS = ("transfer", "cash", "card", "cod")
VAT_AREAS = ("HU", "EU", "3RD")
DATE_KEYS = ("exchange_date", "fulfilled_at", "issued_at", "due_at", "planned_payment_date",
             "accounting_period_start", "accounting_period_end", "vat_period_started_at")
OPTIONAL_TEXT = {"paid_through": 100, "secondary_id": 100, "note": 5000, "accounting_id": 100,
                 "partner_name": 200, "partner_zip_code": 20, "partner_city": 100,
                 "partner_address": 200, "partner_country": 2, "partner_tax_number": 40,
                 "partner_account_number": 60}
INVALID_PK = 'Invalid pk "{}" - object does not exist.'


def _optional_text(limit: int, value: Any) -> str | None:
    return None if value == "" else parse_text(value, limit)


def header_parsers() -> dict:
    """Field name -> parser for every income-level field a write may carry."""
    parsers: dict = {key: parse_date for key in DATE_KEYS}
    parsers.update({key: partial(_optional_text, limit) for key, limit in OPTIONAL_TEXT.items()})
    parsers.update(
        invoice_number=lambda v: parse_text(v, 100, nullable=False),
        referred_invoice_number=lambda v: None if v == "" else parse_text(v, 64),
        invoice_type=lambda v: parse_choice(v, (0, 1), nullable=False),
        net_amount=parse_money, vat_amount=parse_money, gross_amount=parse_money,
        currency=lambda v: parse_int(v, nullable=False), exchange_rate=parse_rate,
        payment_method=lambda v: parse_choice(v, PAYMENT_METHODS),
        vat_area=lambda v: parse_choice(v, VAT_AREAS, nullable=False),
        needs_review=parse_bool, review_done=parse_bool, is_cancelled=parse_bool,
        partner_id=parse_int, ledger_number_id=parse_int,
        vat_period_type=lambda v: parse_choice(v, VAT_PERIOD_TYPES),
        tags=parse_id_list, simple_tags=parse_id_list)
    return parsers


def parse_id_list(value: Any) -> list[int]:
    """A list of integer ids (objects with an id are taken too)."""
    if not isinstance(value, list):
        raise FieldError(f'Expected a list of items but got type "{type(value).__name__}".')
    return [parse_int(v, nullable=False) for v in value]


def parse_header(data: dict, company: Company, errors: dict) -> dict:
    """Parse the header fields present in data and check that references exist."""
    values = collect(data, header_parsers(), errors)
    check_refs(values, company, errors)
    return values


def check_refs(values: dict, company: Company, errors: dict) -> None:
    """Currency, partner, ledger number and tags must exist (in the company)."""
    if values.get("currency") is not None and db().get(Currency, values["currency"]) is None:
        errors["currency"] = [INVALID_PK.format(values["currency"])]
    for key, model in (("partner_id", Partner), ("ledger_number_id", LedgerNumber)):
        if values.get(key) is not None and not owned(model, values[key], company):
            errors[key] = [INVALID_PK.format(values[key])]
    for key in ("tags", "simple_tags"):
        missing = missing_tags(values.get(key) or [], company)
        if missing:
            errors[key] = [INVALID_PK.format(missing[0])]


def owned(model, ref_id: int, company: Company) -> bool:
    """True when the record exists and belongs to the company."""
    row = db().get(model, ref_id)
    return row is not None and row.company_id == company.id


def missing_tags(ids: list[int], company: Company) -> list[int]:
    """The ids of ids that are not tags of the company."""
    if not ids:
        return []
    found = set(db().scalars(select(Tag.id).where(Tag.id.in_(ids),
                                                  Tag.company_id == company.id)))
    return [i for i in ids if i not in found]


def tags_by_id(ids: list[int]) -> list[Tag]:
    """Tag rows for validated ids, in the order given, without duplicates."""
    rows = {t.id: t for t in db().scalars(select(Tag).where(Tag.id.in_(ids)))}
    return [rows[i] for i in dict.fromkeys(ids)]
