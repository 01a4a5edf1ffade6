"""PATCH /2/expenses/{id}/update/ (spec 4.3): validate everything first, then apply.

A field outside editable_fields is refused (400 naming it under non_editable_fields) when its value
would change; sending the current value back is accepted, because clients send assignments whole.
Assignments: an item with id edits that assignment, one without is added; assignments not
mentioned are kept; an empty list is refused.
"""
from __future__ import annotations

from typing import Any

from sandbox.core.errors import validation_error
from sandbox.core.model import utcnow
from sandbox.core.values import REQUIRED_MSG
from sandbox.expenses.fields import (
    ASSIGNMENT_FIELDS,
    HEADER_FIELDS,
    NEW_ASSIGNMENT_REQUIRED,
    Ctx,
    FieldError,
    canonical,
    ref_id,
)
from sandbox.expenses.model import Expense, ExpenseAction, ExpenseAssignment
from sandbox.expenses.rules import editable_sets, why_not

ALREADY_EXCLUDED = "This expense is already excluded from accounting."


class Plan:
    """Parsed changes and the errors found on the way."""

    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.assignments: list[tuple[ExpenseAssignment | None, dict[str, Any]]] = []
        self.errors: dict[str, Any] = {}
        self.not_editable: list[str] = []
        self.extra: dict[str, Any] = {}


def apply_patch(ctx: Ctx, expense: Expense, data: Any, user_name: str) -> None:
    """Validate data against the expense's editable fields and apply it, or raise a 400."""
    if not isinstance(data, dict):
        raise validation_error(non_field=[
            f"Invalid data. Expected a dictionary, but got {type(data).__name__}."])
    data = canonical(data)
    header, assignment = editable_sets(expense, ctx.company)
    plan = Plan()
    for name, raw in data.items():
        if name != "assignments":
            _plan_header(ctx, expense, plan, header, name, raw)
    if "assignments" in data:
        _plan_assignments(ctx, expense, plan, assignment, data["assignments"])
    _check_vat_period(expense, plan)
    if plan.errors:
        if plan.not_editable:
            plan.extra["non_editable_fields"] = plan.not_editable
        raise validation_error(plan.errors, **plan.extra)
    _apply(ctx, expense, plan, user_name)


def _check_vat_period(expense: Expense, plan: Plan) -> None:
    """Spec 7: vat_period_type and vat_period_started_at are set (or cleared) together."""
    names = ("vat_period_type", "vat_period_started_at")
    if not any(name in plan.header for name in names):
        return
    after = {name: plan.header.get(name, getattr(expense, name)) for name in names}
    for name, other in (names, names[::-1]):
        if after[name] is None and after[other] is not None:
            plan.errors[name] = [f"Required together with {other}."]


def _plan_header(ctx: Ctx, expense: Expense, plan: Plan, editable: set, name: str,
                 raw: Any) -> None:
    field = HEADER_FIELDS.get(name)
    if field is None:
        _refuse(plan, plan.errors, name, why_not(expense, ctx.company, name, False), name)
        return
    try:
        value = field.parse(raw, ctx)
    except FieldError as exc:
        plan.errors[name] = [str(exc)]
        return
    if name == "excluded_from_accounting" and value and expense.excluded_from_accounting:
        plan.errors[name] = [ALREADY_EXCLUDED]
        plan.extra["code"] = "already_excluded"
    elif name in editable:
        plan.header[name] = value
    elif value != field.get(expense):
        _refuse(plan, plan.errors, name, why_not(expense, ctx.company, name, False), name)


def _refuse(plan: Plan, errors: dict, name: str, message: str, label: str) -> None:
    errors[name] = [message]
    plan.not_editable.append(label)


def _plan_assignments(ctx: Ctx, expense: Expense, plan: Plan, editable: set, raw: Any) -> None:
    if not isinstance(raw, list):
        plan.errors["assignments"] = [
            f'Expected a list of items but got type "{type(raw).__name__}".']
        return
    if not raw:
        plan.errors["assignments"] = ["This list may not be empty."]
        return
    existing = {a.id: a for a in expense.assignments}
    item_errors = [_plan_item(ctx, expense, plan, editable, existing, item) for item in raw]
    if any(item_errors):
        plan.errors["assignments"] = item_errors


def _plan_item(ctx: Ctx, expense: Expense, plan: Plan, editable: set, existing: dict,
               item: Any) -> dict:
    if not isinstance(item, dict):
        return {"non_field_errors": [
            f"Invalid data. Expected a dictionary, but got {type(item).__name__}."]}
    item = canonical(item)
    errors: dict[str, list[str]] = {}
    target = _target(item, existing, errors)
    current = target or ExpenseAssignment(job_number="", tags=[])
    changes = {}
    for name, raw in item.items():
        if name != "id":
            _plan_item_field(ctx, expense, plan, editable, current, changes, errors, name, raw)
    if target is None and "id" not in errors:
        for name in NEW_ASSIGNMENT_REQUIRED:
            if name not in item:
                errors.setdefault(name, [REQUIRED_MSG])
    plan.assignments.append((target, changes))
    return errors


def _target(item: dict, existing: dict, errors: dict) -> ExpenseAssignment | None:
    if item.get("id") is None:
        return None
    try:
        pk = ref_id(item["id"])
    except FieldError as exc:
        errors["id"] = [str(exc)]
        return None
    if pk not in existing:
        errors["id"] = [f'Invalid pk "{pk}" - object does not exist.']
    return existing.get(pk)


def _plan_item_field(ctx: Ctx, expense: Expense, plan: Plan, editable: set,
                     current: ExpenseAssignment, changes: dict, errors: dict, name: str,
                     raw: Any) -> None:
    field = ASSIGNMENT_FIELDS.get(name)
    label = f"assignments.{name}"
    if field is None:
        _refuse(plan, errors, name, why_not(expense, ctx.company, name, True), label)
        return
    try:
        value = field.parse(raw, ctx)
    except FieldError as exc:
        errors[name] = [str(exc)]
        return
    if name in editable:
        changes[name] = value
    elif value != field.get(current):
        _refuse(plan, errors, name, why_not(expense, ctx.company, name, True), label)


def _apply(ctx: Ctx, expense: Expense, plan: Plan, user_name: str) -> None:
    for name, value in plan.header.items():
        if name == "excluded_from_accounting":
            _set_excluded(expense, value, user_name)
        else:
            HEADER_FIELDS[name].put(expense, value, ctx)
    for target, changes in plan.assignments:
        row = target or ExpenseAssignment(job_number="")
        for name, value in changes.items():
            ASSIGNMENT_FIELDS[name].put(row, value, ctx)
        if target is None:
            expense.assignments.append(row)
    expense.refresh_derived()
    expense.updated_at = utcnow()


def _set_excluded(expense: Expense, value: bool, user_name: str) -> None:
    """Excluding is an action (spec 3); including again is recorded the same way."""
    if value == expense.excluded_from_accounting:
        return
    expense.excluded_from_accounting = value
    kind = "exclude_from_accounting" if value else "include_in_accounting"
    expense.actions.append(ExpenseAction(type=kind, user_name=user_name, created_at=utcnow()))
