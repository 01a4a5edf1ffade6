"""Writable expense and assignment fields: how each is parsed, read back and stored."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from sandbox.catalog.model import Currency, ExpenseType, Tag, VatCategory
from sandbox.company.model import Company
from sandbox.core.values import (
    BOOL_MSG,
    NULL_MSG,
    STRING_MSG,
    FieldError,
    choice_msg,
    parse_iso_date,
    parse_money,
    parse_rate,
    too_long_msg,
)
from sandbox.ledger.model import LedgerNumber
from sandbox.partners.model import Partner

PAYMENT_METHODS = ("transfer", "cash", "card", "cod")
VAT_AREAS = ("HU", "EU", "3RD")
VAT_PERIOD_TYPES = ("monthly", "quarterly", "yearly")
MAX_ID = 2**63 - 1


@dataclass
class Ctx:
    """What parsers need to resolve references: the session and the company."""

    session: Session
    company: Company


@dataclass
class Field:
    """A writable field: parse(raw, ctx) -> plain value; get(obj) -> plain; put(obj, plain, ctx)."""

    name: str
    parse: Callable[[Any, Ctx], Any]
    get: Callable[[Any], Any]
    put: Callable[[Any, Any, Ctx], None]


def _text(max_length: int, nullable_to: str | None = "") -> Callable[[Any, Ctx], Any]:
    def parse(raw: Any, _ctx: Ctx) -> Any:
        if raw is None and nullable_to is not None:
            return nullable_to
        if not isinstance(raw, str):
            raise FieldError(STRING_MSG)
        if len(raw) > max_length:
            raise FieldError(too_long_msg(max_length))
        return raw
    return parse


def _choice(options: tuple[str, ...]) -> Callable[[Any, Ctx], Any]:
    def parse(raw: Any, _ctx: Ctx) -> Any:
        if raw not in options:
            raise FieldError(choice_msg(raw))
        return raw
    return parse


def _optional(parse: Callable[[Any, Ctx], Any]) -> Callable[[Any, Ctx], Any]:
    return lambda raw, ctx: None if raw is None else parse(raw, ctx)


def parse_decimal(raw: Any, _ctx: Ctx | None = None) -> Decimal:
    """An amount from a string or number as DRF's DecimalField(14, 2) reads it: a third
    decimal, a thirteenth digit, null, booleans and junk are refused, never rounded."""
    return parse_money(raw)


def _rate(raw: Any, _ctx: Ctx) -> Decimal:
    return parse_rate(raw)


def parse_date(raw: Any, _ctx: Ctx | None = None) -> date | None:
    """A YYYY-MM-DD date or None."""
    return parse_iso_date(raw)


def _bool(raw: Any, _ctx: Ctx) -> bool:
    if not isinstance(raw, bool):
        raise FieldError(BOOL_MSG)
    return raw


def _custom_fields(raw: Any, _ctx: Ctx) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
            isinstance(k, str) and (isinstance(v, str) or v is None) for k, v in raw.items()):
        raise FieldError("Expected an object of text values.")
    return {k: v for k, v in raw.items() if v is not None}


def ref_id(raw: Any) -> int:
    """A primary key sent as an integer or as an object carrying id."""
    if isinstance(raw, dict):
        raw = raw.get("id")
    if isinstance(raw, bool) or not isinstance(raw, int | str) or not str(raw).isdecimal():
        raise FieldError(f"Incorrect type. Expected pk value, received {type(raw).__name__}.")
    if int(raw) > MAX_ID:
        raise FieldError(f'Invalid pk "{raw}" - object does not exist.')
    return int(raw)


def _ref(model, nullable: bool = True, company_scoped: bool = True):
    def parse(raw: Any, ctx: Ctx) -> int | None:
        if raw is None:
            if nullable:
                return None
            raise FieldError(NULL_MSG)
        pk = ref_id(raw)
        row = ctx.session.get(model, pk)
        if row is None or (company_scoped and row.company_id != ctx.company.id):
            raise FieldError(f'Invalid pk "{pk}" - object does not exist.')
        return pk
    return parse


def _tag_ids(raw: Any, ctx: Ctx) -> list[int]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise FieldError(f'Expected a list of items but got type "{type(raw).__name__}".')
    parse = _ref(Tag, nullable=False)
    return sorted({parse(item, ctx) for item in raw})


def _attr(name: str):
    return (lambda obj: getattr(obj, name),
            lambda obj, value, _ctx: setattr(obj, name, value))


def _tags_attr(name: str):
    def put(obj, ids, ctx: Ctx) -> None:
        setattr(obj, name, [ctx.session.get(Tag, pk) for pk in ids])
    return (lambda obj: sorted(t.id for t in getattr(obj, name)), put)


def _field(name: str, parse, attr: str | None = None, tags: bool = False) -> Field:
    get, put = _tags_attr(name) if tags else _attr(attr or name)
    return Field(name, parse, get, put)


HEADER_FIELDS = {f.name: f for f in (
    _field("partner", _ref(Partner), "partner_id"),
    _field("invoice_number", _text(100)),
    _field("issued_at", parse_date), _field("fulfilled_at", parse_date),
    _field("due_at", parse_date),
    _field("currency", _ref(Currency, nullable=False, company_scoped=False), "currency_id"),
    _field("exchange_rate", _rate),
    _field("payment_method", _choice(PAYMENT_METHODS)),
    _field("vat_area", _choice(VAT_AREAS)),
    _field("note", _text(5000)), _field("secondary_id", _text(100)),
    _field("tags", _tag_ids, tags=True), _field("simple_tags", _tag_ids, tags=True),
    _field("custom_fields", _custom_fields),
    _field("excluded_from_accounting", _bool),
    _field("accounting_id", _optional(_text(100, nullable_to=None))),
    _field("vat_period_type", _optional(_choice(VAT_PERIOD_TYPES))),
    _field("vat_period_started_at", parse_date),
)}

ASSIGNMENT_FIELDS = {f.name: f for f in (
    _field("expense_type", _ref(ExpenseType, nullable=False), "expense_type_id"),
    _field("net_amount", parse_decimal), _field("vat_amount", parse_decimal),
    _field("gross_amount", parse_decimal),
    _field("vat", _ref(VatCategory), "vat_id"),
    _field("tags", _tag_ids, tags=True),
    _field("job_number", _text(60)),
    _field("ledger_number", _ref(LedgerNumber), "ledger_number_id"),
    _field("vat_ledger_number", _ref(LedgerNumber), "vat_ledger_number_id"),
    _field("company_vat_category", _ref(VatCategory), "company_vat_category_id"),
)}
# Reference fields are also accepted under their *_id spelling (the income spec's names).
ALIASES = {"partner_id": "partner", "currency_id": "currency", "expense_type_id": "expense_type",
           "vat_id": "vat", "ledger_number_id": "ledger_number",
           "vat_ledger_number_id": "vat_ledger_number",
           "company_vat_category_id": "company_vat_category"}
NEW_ASSIGNMENT_REQUIRED = ("expense_type", "net_amount", "vat_amount", "gross_amount")


def canonical(data: dict) -> dict:
    """data with *_id aliases renamed to the field names editable_fields uses."""
    return {ALIASES.get(key, key): value for key, value in data.items()}
