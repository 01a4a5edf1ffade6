"""Words for the policy vocabulary: condition fields, comparisons, targets, income types."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from app.policies import NUMERIC_FIELDS

FIELD_LABELS = {
    "partner_name": _l("Partner name"),
    "partner_tax_number": _l("Partner tax number"),
    "invoice_number": _l("Invoice number"),
    "note": _l("Note"),
    "currency": _l("Currency"),
    "vat_area": _l("VAT area"),
    "gross_amount": _l("Gross amount"),
    "net_amount": _l("Net amount"),
    "type": _l("Income type"),
    "source": _l("Source (integration)"),
}
OP_LABELS = {
    "equals": _l("is"),
    "not_equals": _l("is not"),
    "in": _l("is one of"),
    "contains": _l("contains"),
    "not_contains": _l("does not contain"),
    "starts_with": _l("starts with"),
    "ends_with": _l("ends with"),
    "regex": _l("matches the pattern"),
    "gt": _l("is more than"),
    "gte": _l("is at least"),
    "lt": _l("is less than"),
    "lte": _l("is at most"),
    "between": _l("is between"),
}
TARGET_LABELS = {
    "revenue_type": _l("Revenue type"),
    "ledger_number": _l("Ledger number"),
    "job_number": _l("Job number"),
    "tags": _l("Tags"),
    "split": _l("Split"),
}
INCOME_TYPES = {
    1: _l("invoice"),
    2: _l("accounting document"),
    6: _l("cash receipt"),
    7: _l("collective receipt"),
}
PART_KINDS = {"percent": _l("Percent"), "amount": _l("Amount")}
SECTION_TITLES = {"policies": _l("Policies"), "ignore": _l("Ignore rules")}

# Which comparisons suit which fields; the browser greys out the others.
TEXT_ONLY = ("contains", "not_contains", "starts_with", "ends_with", "regex")
NUMBER_ONLY = ("gt", "gte", "lt", "lte", "between")


def op_kind(op: str) -> str:
    """Return "text", "number" or "any": the kind of field the comparison works on."""
    if op in TEXT_ONLY:
        return "text"
    return "number" if op in NUMBER_ONLY else "any"


def field_kind(field: str) -> str:
    """Return "number" for amounts and the income type, else "text"."""
    return "number" if field in NUMERIC_FIELDS else "text"


def field_label(field) -> str:
    """The field's label, or the raw name for a field Bookdesk does not know."""
    return str(FIELD_LABELS.get(field, field))


def op_label(op) -> str:
    """The comparison's words, or the raw name for an unknown one."""
    return str(OP_LABELS.get(op, op))
