"""Assignments under the reduced edit group (d): only revenue_type may change.

The submitted list pairs with the current assignments by id (when every item has one) or by
position; its length is fixed. Other keys are tolerated when they repeat the current value.
"""
from __future__ import annotations

from typing import Any

from sandbox.catalog.model import RevenueType
from sandbox.company.model import Company
from sandbox.core.values import FieldError, int_or_none, parse_int, parse_money
from sandbox.incomes.model import Income, IncomeAssignment
from sandbox.incomes.payload import INVALID_PK, owned, parse_id_list

LOCKED_MSG = "Not editable on this income: within assignments only revenue_type can change."
AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
IDS = {"vat": "vat_id", "ledger_number_id": "ledger_number_id",
       "vat_ledger_number_id": "vat_ledger_number_id",
       "company_vat_category_id": "company_vat_category_id"}


def revenue_types_only(income: Income, value: Any, company: Company, errors: dict) -> None:
    """Validate, then set only the revenue types of the existing assignments."""
    pairs = _pairs(income, value, errors)
    if pairs is None:
        return
    nested = [_check(item, row, company) for item, row in pairs]
    if any(nested):
        errors["assignments"] = nested
        return
    for item, row in pairs:
        if "revenue_type" in item:
            row.revenue_type_id = parse_int(item["revenue_type"])


def _pairs(income: Income, value: Any, errors: dict):
    rows = list(income.assignments)
    if not isinstance(value, list) or len(value) != len(rows) or \
            not all(isinstance(item, dict) for item in value):
        errors["assignments"] = [f"{LOCKED_MSG} Send the {len(rows)} current assignments."]
        return None
    if all("id" in item for item in value):
        by_id = {row.id: row for row in rows}
        if {int_or_none(item["id"]) for item in value} != set(by_id):
            errors["assignments"] = [f"{LOCKED_MSG} Unknown or repeated assignment ids."]
            return None
        return [(item, by_id[int_or_none(item["id"])]) for item in value]
    return list(zip(value, rows, strict=True))


def _check(item: dict, row: IncomeAssignment, company: Company) -> dict:
    errors = {key: [LOCKED_MSG] for key in item
              if key not in ("id", "revenue_type") and not _same(key, item[key], row)}
    if "revenue_type" in item:
        try:
            type_id = parse_int(item["revenue_type"], nullable=False)
            if not owned(RevenueType, type_id, company):
                errors["revenue_type"] = [INVALID_PK.format(type_id)]
        except FieldError as exc:
            errors["revenue_type"] = [str(exc)]
    return errors


def _same(key: str, sent: Any, row: IncomeAssignment) -> bool:
    try:
        if key in AMOUNTS:
            return parse_money(sent) == getattr(row, key)
        if key in IDS:
            return parse_int(sent) == getattr(row, IDS[key])
        if key == "tags":
            return set(parse_id_list(sent)) == {tag.id for tag in row.tags}
        if key == "job_number":
            return (sent or None) == row.job_number
    except FieldError:
        return False
    return True
