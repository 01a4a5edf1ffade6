"""Which income fields can be edited (spec 4.2 update rule 2): one function serves both the
`editable_fields` answer and the update's enforcement.

Mapping of the edit groups (the spec leaves it partly open; this is the sandbox's decision):
- booked, or processed (any type)                      -> (d) secondary_id, tags, simple_tags,
                                                             assignments (only revenue_type)
- type 2 accounting document, not processed             -> (a) + (b) + is_cancelled
- type 1 invoice synced from invoicing software / NAV   -> (a)
- type 1 invoice entered by hand (manual/api source)    -> (a) + (b) (partner_account_number is
                                                             accepted and ignored on invoices)
- types 6 and 7 receipts, not processed                 -> (c) + needs_review, review_done
Besides: accounting_id when enable_accounting_id is on and the income is not booked;
vat_period_type and vat_period_started_at when enable_vat_period is on and it is not booked.
Assignment-level fields are named `assignments.<field>`.
"""
from __future__ import annotations

from sandbox.models import Company
from sandbox.models.incomes import Income

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
