"""Assignments (revenue categorisation) and invoice line items of an income write.

Errors come back nested per position, as DRF's list serializers do:
{"assignments": [{}, {"revenue_type": ["Invalid pk \"99\" - object does not exist."]}]}.
"""
from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from sandbox.catalog.model import RevenueType, VatCategory
from sandbox.company.model import Company
from sandbox.core.values import (
    REQUIRED_MSG,
    collect,
    parse_int,
    parse_money,
    parse_percent,
    parse_text,
)
from sandbox.incomes.model import IncomeAssignment, IncomeItem
from sandbox.incomes.payload import INVALID_PK, missing_tags, owned, parse_id_list, tags_by_id
from sandbox.ledger.model import LedgerNumber

ADVANCED_ONLY = ("vat_ledger_number_id", "company_vat_category_id")
ADVANCED_MSG = "Only applies when the company uses advanced accounting."
REFS = {"revenue_type": RevenueType, "vat": VatCategory, "ledger_number_id": LedgerNumber,
        "vat_ledger_number_id": LedgerNumber, "company_vat_category_id": VatCategory}


def _assignment_parsers() -> dict:
    parsers: dict = {key: parse_int for key in REFS}
    parsers.update(net_amount=parse_money, vat_amount=parse_money, gross_amount=parse_money,
                   tags=parse_id_list,
                   job_number=lambda v: None if v == "" else parse_text(v, 60))
    return parsers


def parse_assignments(value: Any, company: Company, errors: dict) -> list[dict] | None:
    """Validate an assignments list; at least one item; errors nested per position."""
    if isinstance(value, list) and not value:
        errors["assignments"] = ["This list may not be empty."]
        return None
    return _parse_list(value, "assignments", lambda item, _: parse_assignment(item, company),
                       errors)


def parse_assignment(item: Any, company: Company) -> tuple[dict, dict]:
    """One assignment: (values, errors)."""
    if not isinstance(item, dict):
        return {}, {"non_field_errors": ["Invalid data. Expected a dictionary."]}
    errors: dict = {}
    values = collect(item, _assignment_parsers(), errors)
    for key in ("revenue_type", "net_amount", "gross_amount"):
        if values.get(key) is None and key not in errors:
            errors[key] = [REQUIRED_MSG]
    for key, model in REFS.items():
        if values.get(key) is not None and key not in errors:
            if key in ADVANCED_ONLY and not company.advanced_accounting:
                errors[key] = [ADVANCED_MSG]
            elif not owned(model, values[key], company):
                errors[key] = [INVALID_PK.format(values[key])]
    missing = missing_tags(values.get("tags") or [], company)
    if missing:
        errors["tags"] = [INVALID_PK.format(missing[0])]
    return values, errors


def build_assignment(values: dict, position: int) -> IncomeAssignment:
    """An assignment row from validated values (vat_amount defaults to gross - net)."""
    net, gross = values["net_amount"], values["gross_amount"]
    vat = values.get("vat_amount")
    return IncomeAssignment(
        position=position, revenue_type_id=values["revenue_type"], net_amount=net,
        gross_amount=gross, vat_amount=gross - net if vat is None else vat,
        vat_id=values.get("vat"), job_number=values.get("job_number"),
        ledger_number_id=values.get("ledger_number_id"),
        vat_ledger_number_id=values.get("vat_ledger_number_id"),
        company_vat_category_id=values.get("company_vat_category_id"),
        tags=tags_by_id(values.get("tags") or []))


def parse_items(value: Any, errors: dict) -> list[IncomeItem] | None:
    """Optional invoice lines; amounts default from quantity, unit price and vat_percent."""
    return _parse_list(value, "items", _item, errors)


def _parse_list(value: Any, field: str, parse: Callable[[Any, int], tuple[Any, dict]],
                errors: dict) -> list | None:
    # Every item is parsed (parse(item, position) -> (row, errors)) so all errors show at once.
    if not isinstance(value, list):
        errors[field] = [f'Expected a list of items but got type "{type(value).__name__}".']
        return None
    rows, nested = [], []
    for position, item in enumerate(value):
        row, item_errors = parse(item, position)
        rows.append(row)
        nested.append(item_errors)
    if any(nested):
        errors[field] = nested
        return None
    return rows


def _item(item: Any, position: int) -> tuple[IncomeItem | None, dict]:
    if not isinstance(item, dict):
        return None, {"non_field_errors": ["Invalid data. Expected a dictionary."]}
    errors: dict = {}
    values = collect(item, {"name": lambda v: parse_text(v, 200, nullable=False),
                            "unit": lambda v: None if v == "" else parse_text(v, 20),
                            "quantity": _quantity, "unit_price": parse_money,
                            "net_amount": parse_money, "vat_amount": parse_money,
                            "gross_amount": parse_money, "vat_percent": parse_percent}, errors)
    if "name" not in values and "name" not in errors:
        errors["name"] = [REQUIRED_MSG]
    if errors:
        return None, errors
    return _build_item(values, position), {}


def _build_item(values: dict, position: int) -> IncomeItem:
    quantity = values.get("quantity", Decimal(1))
    unit_price = values.get("unit_price", Decimal(0))
    percent = values.get("vat_percent", 27.0)
    net = values.get("net_amount", (quantity * unit_price).quantize(Decimal("0.01")))
    vat = values.get("vat_amount", (net * Decimal(str(percent)) / 100).quantize(Decimal("0.01")))
    return IncomeItem(position=position, name=values["name"], unit=values.get("unit"),
                      quantity=quantity, unit_price=unit_price, net_amount=net, vat_amount=vat,
                      gross_amount=values.get("gross_amount", net + vat), vat_percent=percent)


def _quantity(value: Any) -> Decimal:
    return parse_money(value, places=4)
