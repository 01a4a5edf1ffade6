"""Cross-field income rules shared by create and update (spec 4.2 create 2, update 5-7)."""
from __future__ import annotations

from decimal import Decimal

from .incomes_periods import vat_period_start
from .models import Company, Currency

PAIR_MSG = "{} and {} must be sent together."
RATE_MSG = ("An actual exchange rate is required for an income in {} (the company's default "
            "currency is {}).")


def check_exchange(currency_id: int, rate: Decimal | None, company: Company,
                   errors: dict) -> None:
    """Default currency: rate 1 (or none); any other currency: an actual rate (not 1)."""
    if "currency" in errors or "exchange_rate" in errors:
        return
    if currency_id == company.default_currency_id:
        if rate is not None and rate != 1:
            errors["exchange_rate"] = [
                "The exchange rate of the company's default currency is 1."]
        return
    if rate is None or rate == 1:
        code = getattr(_currency(currency_id), "code", currency_id)
        errors["exchange_rate"] = [RATE_MSG.format(code, company.default_currency.code)]


def _currency(currency_id: int) -> Currency | None:
    from .db import db

    return db().get(Currency, currency_id)


def check_accounting_period(data: dict, values: dict, errors: dict) -> None:
    """Rule 7: start and end come together, and the start is not after the end."""
    keys = ("accounting_period_start", "accounting_period_end")
    sent = [key in data for key in keys]
    if any(sent) and not all(sent):
        errors["non_field_errors"] = errors.get("non_field_errors", []) + [PAIR_MSG.format(*keys)]
        return
    start, end = values.get(keys[0]), values.get(keys[1])
    if start and end and start > end:
        errors[keys[0]] = ["The accounting period start may not be after its end."]
    elif (start is None) != (end is None) and not any(k in errors for k in keys):
        errors["non_field_errors"] = errors.get("non_field_errors", []) + [
            "accounting_period_start and accounting_period_end must both be set or both null."]


def check_vat_period(data: dict, values: dict, errors: dict) -> None:
    """Rule 6: type and start together; both null clears; the start is rounded down."""
    keys = ("vat_period_type", "vat_period_started_at")
    sent = [key in data for key in keys]
    if any(sent) and not all(sent):
        errors["non_field_errors"] = errors.get("non_field_errors", []) + [PAIR_MSG.format(*keys)]
        return
    if not all(sent) or any(k in errors for k in keys):
        return
    kind, start = values[keys[0]], values[keys[1]]
    if (kind is None) != (start is None):
        errors["non_field_errors"] = errors.get("non_field_errors", []) + [
            "vat_period_type and vat_period_started_at must both be set or both null."]
    elif kind is not None:
        values[keys[1]] = vat_period_start(kind, start)


def check_settings(values: dict, company: Company, booked: bool, errors: dict) -> None:
    """accounting_id and the VAT period need their company switch and an unbooked income."""
    rules = (("accounting_id", company.enable_accounting_id, "enable_accounting_id"),
             ("vat_period_type", company.enable_vat_period, "enable_vat_period"),
             ("vat_period_started_at", company.enable_vat_period, "enable_vat_period"))
    for key, enabled, switch in rules:
        if key not in values:
            continue
        if not enabled:
            errors[key] = [f"Not editable: the company setting {switch} is off."]
        elif booked:
            errors[key] = ["Not editable: the income is booked."]
