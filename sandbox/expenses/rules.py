"""Which expense fields are editable, by source and processing status, and why not.

Expense-level names appear as they are (`note`); assignment-level names as `assignments.<field>`;
`assignments` itself is listed whenever any assignment field is editable. The sets are cut down
by every restriction that applies (the intersection):

- manual, not processed: everything below.
- synced from an integration: the invoice data belongs to the integration; only annotations,
  the exclusion action and categorisation remain; ledger_number is frozen (spec 4.3 rule 4).
- processed: annotations, the exclusion action, due_at, payment_method, and categorisation
  (amounts and VAT are settled).
- booked: annotations only, plus assignment tags and job_number; no exclusion any more.
- checked: ledger_number is frozen (spec 4.3 rule 4).
- vat_ledger_number and company_vat_category apply under advanced accounting only (spec 2.1).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sandbox.company.model import Company
from sandbox.expenses.model import Expense

HEADER = ("partner", "invoice_number", "issued_at", "fulfilled_at", "due_at", "currency",
          "exchange_rate", "payment_method", "vat_area")
ANNOTATIONS = ("note", "secondary_id", "tags", "simple_tags", "custom_fields")
ACTIONS = ("excluded_from_accounting",)
HEADER_ORDER = HEADER + ANNOTATIONS + ACTIONS
AMOUNTS = ("net_amount", "vat_amount", "gross_amount", "vat")
CATEGORIES = ("expense_type", "tags", "job_number", "ledger_number", "vat_ledger_number",
              "company_vat_category")
ASSIGNMENT_ORDER = ("expense_type",) + AMOUNTS + CATEGORIES[1:]
ADVANCED_ONLY = ("vat_ledger_number", "company_vat_category")


@dataclass(frozen=True)
class Restriction:
    """When `applies`, only `header` and `assignment` fields stay editable, for `reason`."""

    applies: Callable[[Expense, Company], bool]
    header: frozenset[str]
    assignment: frozenset[str]
    reason: str


def _keep(*names: str) -> frozenset[str]:
    return frozenset(names)


RESTRICTIONS = (
    Restriction(lambda e, _c: e.is_synced, _keep(*ANNOTATIONS, *ACTIONS),
                _keep(*CATEGORIES) - {"ledger_number"},
                "Not editable on an expense synced from an integration."),
    Restriction(lambda e, _c: e.processed, _keep(*ANNOTATIONS, *ACTIONS, "due_at",
                                                 "payment_method"),
                _keep(*CATEGORIES), "Not editable on a processed expense."),
    Restriction(lambda e, _c: e.booked, _keep(*ANNOTATIONS), _keep("tags", "job_number"),
                "Not editable on a booked expense."),
    Restriction(lambda e, _c: e.checked, _keep(*HEADER_ORDER),
                _keep(*ASSIGNMENT_ORDER) - {"ledger_number"}, "Not editable on a checked expense."),
    Restriction(lambda _e, c: not c.advanced_accounting, _keep(*HEADER_ORDER),
                _keep(*ASSIGNMENT_ORDER) - set(ADVANCED_ONLY),
                "Applies under advanced accounting only."),
)
FROZEN_LEDGER = {"Not editable on a checked expense.": "checked",
                 "Not editable on an expense synced from an integration.": "integration-synced"}


def editable_sets(expense: Expense, company: Company) -> tuple[set[str], set[str]]:
    """(expense-level, assignment-level) field names editable right now."""
    header, assignment = set(HEADER_ORDER), set(ASSIGNMENT_ORDER)
    for rule in RESTRICTIONS:
        if rule.applies(expense, company):
            header &= rule.header
            assignment &= rule.assignment
    return header, assignment


def editable_fields(expense: Expense, company: Company) -> list[str]:
    """The editable_fields list of the detail response."""
    header, assignment = editable_sets(expense, company)
    names = [name for name in HEADER_ORDER if name in header]
    if assignment:
        names.append("assignments")
        names += [f"assignments.{name}" for name in ASSIGNMENT_ORDER if name in assignment]
    return names


def why_not(expense: Expense, company: Company, name: str, in_assignment: bool) -> str:
    """The message for a field that may not be changed on this expense."""
    known = ASSIGNMENT_ORDER if in_assignment else HEADER_ORDER
    if name not in known:
        return "This field is read-only or unknown."
    for rule in RESTRICTIONS:
        kept = rule.assignment if in_assignment else rule.header
        if rule.applies(expense, company) and name not in kept:
            if in_assignment and name == "ledger_number" and rule.reason in FROZEN_LEDGER:
                return f"ledger_number is frozen on {FROZEN_LEDGER[rule.reason]} expenses."
            return rule.reason
    return "This field is not editable."
