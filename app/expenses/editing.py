"""The expense edit form: fields from editable_fields, rules the API words for expenses.

Exclusion from accounting is left out (it is an action with its own confirmation); so are the
top-level amounts (an expense's totals live on its assignments).
"""
from __future__ import annotations

from flask import url_for
from flask_babel import gettext as _

from app.forms import EXPENSE_ASSIGNMENT_FIELDS, EXPENSE_FIELDS, build_edit_form
from app.forms.display import MANUAL_SOURCES, record_state
from app.forms.registry import variant

NOT_EDITED_HERE = ("excluded_from_accounting", "net_amount", "vat_amount", "gross_amount")
# An uploaded expense has no invoice number until someone types it: not required here.
OPTIONAL = {"invoice_number": variant("invoice_number", required=False)}
EDIT_FIELDS = tuple(OPTIONAL.get(name, name) for name in EXPENSE_FIELDS
                    if name not in NOT_EDITED_HERE)
LEDGER = "assignments.ledger_number"


def edit_form(expense: dict, settings: dict, catalogs: dict):
    """The expense's edit form (partner search through this area's endpoint)."""
    return build_edit_form(expense, catalogs, company=settings, fields=EDIT_FIELDS,
                           assignment_fields=EXPENSE_ASSIGNMENT_FIELDS,
                           search_url=url_for("incomes.partner_options"),
                           totals_url=url_for("incomes.totals"))


def refuses_empty_list(form, body: dict) -> bool:
    """True (with the message on the table) when the PATCH would empty the assignments."""
    if "assignments" not in body or body["assignments"]:
        return False
    message = _("Keep at least one cost categorisation row: an expense cannot be left without "
                "one.")
    form.row_errors.setdefault("assignments", {})[-1] = [message]
    form.form_errors.append(message)
    return True


def frozen_ledger(expense: dict) -> str | None:
    """Why the assignments' ledger number cannot change (spec 4.3 rule 4), else None."""
    editable = expense.get("editable_fields") or []
    if not expense.get("assignments") or LEDGER in editable:
        return None
    source = expense.get("source")
    if source not in MANUAL_SOURCES:
        return _("The ledger number is frozen: this expense was synced from %(source)s.",
                 source=source)
    if expense.get("checked"):
        return _("The ledger number is frozen: this expense is checked.")
    return None


def lock_note(form, expense: dict) -> str | None:
    """The record-wide reason for the top of the form; a checked expense freezes only ledgers."""
    return None if record_state(expense) == "checked" else form.lock_summary()
