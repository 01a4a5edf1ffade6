"""Rules of tax and salary writes (spec 4.5): what create and update accept and refuse."""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from functools import partial

from sandbox.core.values import REQUIRED_MSG
from sandbox.taxes.model import Salary, Tax
from sandbox.taxes.values import (
    parse_account,
    parse_amount,
    parse_code,
    parse_date,
    parse_month,
    parse_paid_status,
    parse_rate,
    parse_tag_ids,
    parse_tax_number,
    parse_text,
)

CURRENCY = "This field is not accepted: taxes and salaries are in the company's currency."
CODE_TOGETHER = "code cannot be sent together with name or account_number."
NEEDS_NAME = "This field is required when code is not sent."
TAG_FIELDS = ("tags", "simple_tags")
IDENTITY = ("code", "name", "account_number")


@dataclass(frozen=True)
class Kind:
    """What differs between taxes and salaries."""

    model: type
    records: str
    monthly_key: str
    monthly_path: str
    is_salary: bool
    required: tuple[str, ...] = ("amount",)


TAXES = Kind(Tax, "taxes", "monthly_taxes", "/2/monthly-taxes/", False)
SALARIES = Kind(Salary, "salaries", "monthly_salaries", "/2/monthly-salaries/", True,
                ("amount", "tax_number"))
# The live /1/ create carries no tax_number (live-api-shapes.json); spec 4.5 names it on the
# /2/ create and spec 8 limits it to one per month, neither asks it of /1/.
SALARIES_V1 = replace(SALARIES, required=("amount",))

PARSERS = {"month": parse_month, "amount": parse_amount, "paid_status": parse_paid_status,
           "code": parse_code, "name": partial(parse_text, max_length=200),
           "account_number": parse_account, "description": partial(parse_text, max_length=1000),
           "title": parse_month, "due_at": parse_date, "exchange_rate": parse_rate,
           "external_id": partial(parse_text, max_length=100)}
SALARY_PARSERS = {"tax_number": parse_tax_number}
# Hungarian taxes of a month are paid by the 12th of the next one, salaries by the 10th.
DUE_DAY = {False: 12, True: 10}
NEEDS_MONTH = "Send month, title or due_at."


def parse_item(item, kind: Kind, tag_ids: set[int]) -> tuple[dict, dict]:
    """The values of every known field present in item, and DRF field errors."""
    if not isinstance(item, dict):
        return {}, {"non_field_errors": ["Expected an object."]}
    values, errors = {}, {}
    if "currency" in item:
        errors["currency"] = [CURRENCY]
    parsers = {**PARSERS, **(SALARY_PARSERS if kind.is_salary else {})}
    for key, parser in parsers.items():
        if key in item:
            _store(key, parser(item[key]), values, errors)
    for key in TAG_FIELDS:
        if key in item:
            _store(key, parse_tag_ids(item[key], tag_ids), values, errors)
    return values, errors


def required_errors(values: dict, kind: Kind) -> dict:
    """Fields a create must carry: the kind's required ones and a month in some form."""
    errors = {key: [REQUIRED_MSG] for key in kind.required if values.get(key) is None}
    if all(values.get(key) is None for key in ("month", "title", "due_at")):
        errors["month"] = [NEEDS_MONTH]
    return errors


def months(values: dict, kind: Kind) -> dict:
    """A create's months as the live fields imply them (inferred): the payment month is the due
    date's month, else the month after title; title is the month before the payment month;
    due_at is the usual day of the payment month. Fields sent win."""
    values = dict(values)
    if values.get("month") is None:
        values["month"] = _first(values["due_at"]) if values.get("due_at") else \
            _shift(values["title"], 1)
    if values.get("title") is None:
        values["title"] = _shift(values["month"], -1)
    if values.get("due_at") is None:
        values["due_at"] = values["month"].replace(day=DUE_DAY[kind.is_salary])
    return values


def _first(day: date) -> date:
    return day.replace(day=1)


def _shift(month: date, by: int) -> date:
    index = month.year * 12 + month.month - 1 + by
    return date(index // 12, index % 12 + 1, 1)


def identity(values: dict, record=None) -> tuple[dict, dict]:
    """The resulting code/name/account_number: a code alone, or both name and account_number."""
    result = {key: getattr(record, key, None) for key in IDENTITY}
    named = any(values.get(key) is not None for key in ("name", "account_number"))
    if values.get("code") is not None:
        if named:
            return result, {"non_field_errors": [CODE_TOGETHER]}
        return {"code": values["code"], "name": None, "account_number": None}, {}
    if named or "code" in values:
        result["code"] = None
    result.update({key: values[key] for key in ("name", "account_number") if key in values})
    if result["code"] is not None:
        return result, {}
    return result, {key: [NEEDS_NAME] for key in ("name", "account_number")
                    if result[key] is None}


def synced_values(values: dict) -> dict:
    """What an update may change on an integration-synced record: its tags, nothing else."""
    return {key: values[key] for key in ("tags",) if key in values}


def _store(key: str, parsed: tuple, values: dict, errors: dict) -> None:
    value, messages = parsed
    if messages:
        errors[key] = messages
    else:
        values[key] = value
