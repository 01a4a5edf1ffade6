"""Income rules shared by create and update: cross-field checks and editable fields."""
from __future__ import annotations

from decimal import Decimal

from sandbox.catalog.model import Currency
from sandbox.company.model import Company
from sandbox.incomes.model import Income
from sandbox.incomes.periods import vat_period_start

PAIR_MSG = "{} and {} must be sent together."
BOTH_MSG = "{} and {} must both be set or both null."
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
    from sandbox.core.db import db

    return db().get(Currency, currency_id)


def check_accounting_period(data: dict, values: dict, errors: dict) -> None:
    """Rule 7: start and end come together, and the start is not after the end."""
    keys = ("accounting_period_start", "accounting_period_end")
    if not _sent_together(data, keys, errors):
        return
    start, end = values.get(keys[0]), values.get(keys[1])
    if start and end and start > end:
        errors[keys[0]] = ["The accounting period start may not be after its end."]
    elif (start is None) != (end is None) and not any(k in errors for k in keys):
        _object_error(errors, BOTH_MSG.format(*keys))


def check_vat_period(data: dict, values: dict, errors: dict) -> None:
    """Rule 6: type and start together; both null clears; the start is rounded down."""
    keys = ("vat_period_type", "vat_period_started_at")
    if not _sent_together(data, keys, errors):
        return
    if keys[0] not in data or any(k in errors for k in keys):
        return
    kind, start = values[keys[0]], values[keys[1]]
    if (kind is None) != (start is None):
        _object_error(errors, BOTH_MSG.format(*keys))
    elif kind is not None:
        values[keys[1]] = vat_period_start(kind, start)


def _sent_together(data: dict, keys: tuple[str, str], errors: dict) -> bool:
    # One key of the pair without the other is an object-level error; neither or both is fine.
    if (keys[0] in data) == (keys[1] in data):
        return True
    _object_error(errors, PAIR_MSG.format(*keys))
    return False


def _object_error(errors: dict, message: str) -> None:
    errors["non_field_errors"] = errors.get("non_field_errors", []) + [message]


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


GROUP_A = ("vat_area", "due_at", "payment_method", "planned_payment_date", "paid_through",
           "secondary_id", "exchange_rate", "exchange_date", "accounting_period_start",
           "accounting_period_end", "tags", "simple_tags", "assignments", "note",
           "needs_review", "review_done", "ledger_number_id")
GROUP_B = ("invoice_number", "net_amount", "gross_amount", "currency", "fulfilled_at",
           "issued_at", "partner_id", "partner_name", "partner_zip_code", "partner_city",
           "partner_address", "partner_country", "partner_tax_number", "partner_account_number")
GROUP_C = ("invoice_number", "net_amount", "vat_amount", "gross_amount", "currency",
           "exchange_rate", "exchange_date", "fulfilled_at", "secondary_id", "tags",
           "simple_tags", "assignments")
GROUP_D = ("secondary_id", "tags", "simple_tags", "assignments")
REVIEW_FLAGS = ("needs_review", "review_done")
ACCOUNTING_ID = ("accounting_id",)
VAT_PERIOD = ("vat_period_type", "vat_period_started_at")
ASSIGNMENT_FIELDS = ("revenue_type", "net_amount", "vat_amount", "gross_amount", "vat", "tags",
                     "job_number", "ledger_number_id")
ADVANCED_ASSIGNMENT_FIELDS = ("vat_ledger_number_id", "company_vat_category_id")
EVERY_FIELD = tuple(dict.fromkeys(GROUP_A + GROUP_B + GROUP_C + ("is_cancelled",)
                                  + ACCOUNTING_ID + VAT_PERIOD))


def income_groups(income: Income) -> tuple[str, ...]:
    """Income-level fields editable by type, source and processing status."""
    if income.is_booked or income.is_processed:
        return GROUP_D
    if income.type == 2:
        return GROUP_A + GROUP_B + ("is_cancelled",)
    if income.type == 1:
        return GROUP_A if income.synced else GROUP_A + GROUP_B
    return GROUP_C + REVIEW_FLAGS


def income_fields(income: Income, company: Company) -> list[str]:
    """Every income-level field editable now, company settings included."""
    fields = list(dict.fromkeys(income_groups(income)))
    if company.enable_accounting_id and not income.is_booked:
        fields += ACCOUNTING_ID
    if company.enable_vat_period and not income.is_booked:
        fields += VAT_PERIOD
    return fields


def assignment_fields(income: Income, company: Company) -> list[str]:
    """Assignment-level fields editable now (only revenue_type in the reduced group)."""
    if "assignments" not in income_groups(income):
        return []
    if income_groups(income) == GROUP_D:
        return ["revenue_type"]
    extra = ADVANCED_ASSIGNMENT_FIELDS if company.advanced_accounting else ()
    return list(ASSIGNMENT_FIELDS + extra)


def editable_fields(income: Income, company: Company) -> list[str]:
    """The `editable_fields` answer: income-level names, then `assignments.<field>` names."""
    return income_fields(income, company) + [
        f"assignments.{name}" for name in assignment_fields(income, company)]
