"""The live filters of GET /2/expenses beside the spec's (sandbox/expenses/filters.py), and
those the deprecated GET /1/expenses lists (V1_FLAGS, v1_live_conditions).

Every list filter takes repeated keys or comma lists (sandbox/core/query.py). What each flag
means where the live description gives only its name (inferred):
- new: no user has opened it (user_saw is null); updated: changed after it was created;
- expired: due and not paid; expiring: not paid and due within expiring_days (default 7);
  expired_days=N keeps those overdue by at least N days;
- duplicate: another expense of the company has the same partner and invoice number;
- incomplete: no partner, no issue date or no assignment; filed: it has a filing number;
- ready_to_sync: processed, neither booked nor excluded; ready_to_acounto_sync: also not
  exported yet; nav: delivered by the tax authority (source nav);
- post_it: it has a note; accounting todo: the accountant's to-do note, done or not;
- attachment: a document is attached to it; approvals / approvers: who approved it.
/1/expenses reads a name it shares with /2/ as /2/ does, and one it shares with /1/incomes as
that list does: is_exported is /2/'s is_accounting_exported; is_due_soon is not paid and due
within 7 days (is_expiring's default); needs_review: in quarantine, waiting for acceptance;
tags: on the expense, its simple tags or an assignment; expense_types: an assignment has one;
due_at, fulfilled_at, created (a UTC day): on that day; invoice_number, filing_number: exact.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta

from sqlalchemy import and_, exists, func, not_, or_
from sqlalchemy.orm import aliased

from sandbox.core import query
from sandbox.core.errors import validation_error
from sandbox.core.model import budapest_today
from sandbox.documents.model import Document
from sandbox.expenses.fields import PAYMENT_METHODS, VAT_AREAS
from sandbox.expenses.model import (
    MANUAL,
    Expense,
    ExpenseAssignment,
    expense_assignment_tag,
    expense_simple_tag,
    expense_tag,
)

EXPIRING_DAYS = 7
UPDATED_AFTER = timedelta(seconds=1)


def _unpaid():
    return Expense.paid_status != 2


def _has_todo():
    return Expense.accounting_todo != ""


def _duplicate():
    other = aliased(Expense)
    return exists().where(other.company_id == Expense.company_id, other.id != Expense.id,
                          other.partner_id == Expense.partner_id,
                          other.invoice_number == Expense.invoice_number,
                          Expense.invoice_number != "")


def _attached():
    return exists().where(Document.attached_to_type == "expense",
                          Document.attached_to_id == Expense.id)


def _has_type():
    return exists().where(ExpenseAssignment.expense_id == Expense.id,
                          ExpenseAssignment.expense_type_id.is_not(None))


def _incomplete():
    no_rows = ~exists().where(ExpenseAssignment.expense_id == Expense.id)
    return or_(Expense.partner_id.is_(None), Expense.issued_at.is_(None), no_rows)


def _expiring(days: int):
    today = budapest_today()
    return and_(_unpaid(), Expense.due_at.between(today, today + timedelta(days=days)))


def _ready():
    return and_(Expense.processed, ~Expense.booked, ~Expense.excluded_from_accounting)


# name -> the condition that holds for true (false is its negation); built per request.
FLAGS = {
    "has_accounting_id": lambda: func.coalesce(Expense.accounting_id, "") != "",
    "has_accounting_todo": _has_todo,
    "has_approvals": lambda: Expense.approved_by.is_not(None),
    "has_artifact": lambda: Expense.artifact_filename.is_not(None),
    "has_attachment": _attached,
    "has_expense_type": _has_type,
    "has_post_it": lambda: Expense.note != "",
    "has_unfinished_accounting_todo": lambda: and_(_has_todo(), ~Expense.accounting_todo_done),
    "has_vat_period": lambda: Expense.vat_period_type.is_not(None),
    "is_accounting_exported": lambda: Expense.exported_at.is_not(None),
    "is_accounting_todo_done": lambda: and_(_has_todo(), Expense.accounting_todo_done),
    "is_approved": lambda: Expense.approved,
    "is_duplicate": _duplicate,
    "is_excluded_from_accounting": lambda: Expense.excluded_from_accounting,
    "is_expired": lambda: and_(_unpaid(), Expense.due_at < budapest_today()),
    "is_expiring": lambda: _expiring(_expiring_days()),
    "is_filed": lambda: Expense.filing_number != "",
    "is_incomplete": _incomplete,
    "is_nav": lambda: Expense.source == "nav",
    "is_new": lambda: Expense.user_saw.is_(None),
    "is_processed": lambda: Expense.processed,
    "is_ready_to_sync": _ready,
    "is_ready_to_acounto_sync": lambda: and_(_ready(), Expense.exported_at.is_(None)),
    "is_synced": lambda: Expense.source != MANUAL,
    "is_updated": lambda: func.julianday(Expense.updated_at) - func.julianday(Expense.created_at)
    > UPDATED_AFTER.total_seconds() / 86400,
}


# The flags of /1/expenses; only their meaning comes from /2/ (docstring above).
V1_FLAGS = {
    **{name: FLAGS[name] for name in ("is_approved", "is_excluded_from_accounting", "is_expired",
                                      "is_incomplete", "is_new", "is_processed")},
    "is_exported": FLAGS["is_accounting_exported"],
    "is_due_soon": lambda: _expiring(EXPIRING_DAYS),
    "needs_review": lambda: Expense.quarantined,
}


def live_conditions() -> list:
    """Conditions for every live filter present in the query string (400 on bad values)."""
    return _flags(FLAGS) + _lists() + _amounts() + _days() + _custom_fields()


def v1_live_conditions() -> list:
    """Conditions for the filters the live /1/expenses lists, but its date range (400 on bad
    values); /2/'s other filters are unknown there, so they are ignored."""
    found = _flags(V1_FLAGS)
    for name, column in (("paid_status", Expense.paid_status), ("partner", Expense.partner_id)):
        if ids := query.integers(name):
            found.append(column.in_(ids))
    if ids := query.integers("expense_types"):
        found.append(_typed(ids))
    if ids := query.integers("tags"):
        found.append(or_(_tagged(ids), exists().where(
            expense_simple_tag.c.expense_id == Expense.id, expense_simple_tag.c.tag_id.in_(ids))))
    if values := _choices("payment_method", PAYMENT_METHODS):
        found.append(Expense.payment_method.in_(values))
    return found + _v1_exact()


def _flags(table: dict) -> list:
    found = []
    for name, condition in table.items():
        wanted = query.flag(name)
        if wanted is not None:
            found.append(condition() if wanted else not_(condition()))
    return found


def _v1_exact() -> list:
    found = []
    for name, column in (("invoice_number", Expense.invoice_number),
                         ("filing_number", Expense.filing_number)):
        if value := query.text(name):
            found.append(column == value)
    for name, column in (("due_at", Expense.due_at), ("fulfilled_at", Expense.fulfilled_at)):
        if day := query.day(name):
            found.append(column == day)
    if day := query.day("created"):
        start = datetime.combine(day, time())
        found.append(and_(Expense.created_at >= start,
                          Expense.created_at < start + timedelta(days=1)))
    return found


def _lists() -> list:
    found = []
    if ids := query.integers("ids"):
        found.append(Expense.id.in_(ids))
    if ids := query.integers("without_ids"):
        found.append(Expense.id.not_in(ids))
    if ids := query.integers("currency_id"):
        found.append(Expense.currency_id.in_(ids))
    for name, column, options in (("payment_method", Expense.payment_method, PAYMENT_METHODS),
                                  ("vat_area", Expense.vat_area, VAT_AREAS),
                                  ("origin", Expense.source, None),
                                  ("with_approvers", Expense.approved_by, None)):
        if values := _choices(name, options):
            found.append(column.in_(values))
    if values := query.values("without_approvers"):
        found.append(or_(Expense.approved_by.is_(None), Expense.approved_by.not_in(values)))
    return found + _with_without("tag_ids", _tagged) + _with_without("expense_type_ids", _typed)


def _choices(name: str, options: tuple[str, ...] | None) -> list[str]:
    values = query.values(name)
    wrong = [v for v in values if options is not None and v not in options]
    if wrong:
        raise validation_error({name: [f'Select a valid choice. {wrong[0]} is not one of the '
                                       'available choices.']})
    return values


def _with_without(name: str, condition) -> list:
    # with_<name> keeps the expenses the condition holds for, without_<name> the others.
    found = []
    if ids := query.integers(f"with_{name}"):
        found.append(condition(ids))
    if ids := query.integers(f"without_{name}"):
        found.append(~condition(ids))
    return found


def _tagged(ids: list[int]):
    on_expense = exists().where(expense_tag.c.expense_id == Expense.id,
                                expense_tag.c.tag_id.in_(ids))
    on_rows = exists().where(ExpenseAssignment.expense_id == Expense.id,
                             expense_assignment_tag.c.assignment_id == ExpenseAssignment.id,
                             expense_assignment_tag.c.tag_id.in_(ids))
    return or_(on_expense, on_rows)


def _typed(ids: list[int]):
    return exists().where(ExpenseAssignment.expense_id == Expense.id,
                          ExpenseAssignment.expense_type_id.in_(ids))


def _amounts() -> list:
    found = []
    # The live names, and the spec's amount range under its older names.
    for names, is_min in ((("gross_amount_min", "min_amount"), True),
                          (("gross_amount_max", "max_amount"), False)):
        for name in names:
            if (value := query.amount(name)) is not None:
                found.append(Expense.total_gross >= value if is_min
                             else Expense.total_gross <= value)
    return found


def _expiring_days() -> int:
    days = query.integers("expiring_days")
    return days[0] if days else EXPIRING_DAYS


def _days() -> list:
    days = query.integers("expired_days")
    if not days:
        return []
    return [_unpaid(), Expense.due_at <= budapest_today() - timedelta(days=days[0])]


def _custom_fields() -> list:
    """custom_fields=Name:value keeps expenses whose custom field Name holds exactly value."""
    found = []
    for pair in query.values("custom_fields"):
        name, sep, value = pair.partition(":")
        if not sep or not name.strip():
            raise validation_error({"custom_fields": ["Use name:value."]})
        path = '$."' + name.strip().replace('"', "") + '"'
        found.append(func.json_extract(Expense.custom_fields, path) == value.strip())
    return found


ORDERINGS = {"id": Expense.id, "created_at": Expense.created_at, "issued_at": Expense.issued_at,
             "fulfilled_at": Expense.fulfilled_at, "due_at": Expense.due_at,
             "updated_at": Expense.updated_at, "gross_amount": Expense.total_gross,
             "invoice_number": Expense.invoice_number, "filing_number": Expense.filing_number}


def ordering(strict: bool = True) -> list | None:
    """ORDER BY for ?ordering=field,-field (None when absent); an unknown field is a 400, or
    when not strict (/1/, as /1/incomes) passed over."""
    fields = query.values("ordering")
    unknown = [f for f in fields if f.lstrip("-") not in ORDERINGS]
    if unknown and strict:
        raise validation_error({"ordering": [f"Unknown ordering field: {unknown[0]}."]})
    fields = [f for f in fields if f not in unknown]
    if not fields:
        return None
    order = [ORDERINGS[f.lstrip("-")].desc() if f.startswith("-") else ORDERINGS[f].asc()
             for f in fields]
    return [*order, Expense.id.desc()]

