"""POST /1/expenses/{approve, unapprove, check, uncheck, export, quarantine-accept}/ (live only).

Body {"ids": [...]}. Each id succeeds or fails on its own; the answer lists both
({"success_ids", "failed_ids", "errors": [{"id", "errors": [...]}]}; quarantine-accept answers
{"success_ids", "success_count", "failure_count"} as live does). The successes are written in
one transaction: the request's. Unknown ids and other companies' ids fail with "Not found.".
What refuses an action (inferred, the live rules are not published): an expense in quarantine
takes no action but acceptance; an excluded expense is neither approved, checked nor exported;
a booked expense stays checked and approved; an exported one stays approved.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import jsonify, request
from sqlalchemy import select

from sandbox.core.auth import current_company, current_token, require_write
from sandbox.core.db import db
from sandbox.core.errors import validation_error
from sandbox.core.model import utcnow
from sandbox.expenses.fields import MAX_ID
from sandbox.expenses.model import Expense

NOT_FOUND = "Not found."
QUARANTINED = "The expense is in quarantine; accept it first."
EXCLUDED = "The expense is excluded from accounting."
BOOKED = "The expense is booked."
EXPORTED = "The expense was exported to accounting."
NOT_QUARANTINED = "The expense is not in quarantine."


@dataclass(frozen=True)
class Action:
    """What an action refuses (each rule a test and its message) and what it changes."""

    refusals: tuple[tuple[Callable[[Expense], bool], str], ...]
    apply: Callable[[Expense], None]

    def problems(self, expense: Expense) -> list[str]:
        """The messages of every refusal that holds for the expense."""
        return [text for holds, text in self.refusals if holds(expense)]


def _set(**values) -> Callable[[Expense], None]:
    def apply(expense: Expense) -> None:
        for name, value in values.items():
            setattr(expense, name, value() if callable(value) else value)
    return apply


def _quarantined(e: Expense) -> bool:
    return e.quarantined


def _excluded(e: Expense) -> bool:
    return e.excluded_from_accounting


def _booked(e: Expense) -> bool:
    return e.booked


def _exported(e: Expense) -> bool:
    return e.exported_at is not None


ACTIONS = {
    "approve": Action(((_quarantined, QUARANTINED), (_excluded, EXCLUDED)),
                      _set(approved=True, approved_by=lambda: current_token().user_name)),
    "unapprove": Action(((_quarantined, QUARANTINED), (_booked, BOOKED), (_exported, EXPORTED)),
                        _set(approved=False, approved_by=None)),
    "check": Action(((_quarantined, QUARANTINED), (_excluded, EXCLUDED)), _set(checked=True)),
    "uncheck": Action(((_quarantined, QUARANTINED), (_booked, BOOKED)), _set(checked=False)),
    "export": Action(((_quarantined, QUARANTINED), (_excluded, EXCLUDED)),
                     _set(exported_at=utcnow)),
    "quarantine-accept": Action(((lambda e: not e.quarantined, NOT_QUARANTINED),),
                                _set(quarantined=False)),
}
COUNTED = ("quarantine-accept",)


def bulk_action(action: str):
    """Apply the action to every listed expense it may apply to; report each id."""
    require_write()
    ids = requested_ids(request.get_json(silent=True))
    rows = db().scalars(select(Expense).where(Expense.company_id == current_company().id,
                                              Expense.id.in_([i for i in ids if i <= MAX_ID])))
    found = {row.id: row for row in rows}
    success, errors = [], []
    for expense_id in ids:
        expense = found.get(expense_id)
        problems = [NOT_FOUND] if expense is None else ACTIONS[action].problems(expense)
        if problems:
            errors.append({"id": expense_id, "errors": problems})
            continue
        ACTIONS[action].apply(expense)
        expense.updated_at = utcnow()
        success.append(expense_id)
    return jsonify(_answer(action, success, errors))


def requested_ids(body) -> list[int]:
    """The body's ids, each once, in order (400 unless a non-empty list of integers)."""
    ids = body.get("ids") if isinstance(body, dict) else None
    if not isinstance(ids, list) or not ids or \
            not all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in ids):
        raise validation_error({"ids": ["A non-empty list of expense ids is required."]})
    return list(dict.fromkeys(ids))


def _answer(action: str, success: list[int], errors: list[dict]) -> dict:
    if action in COUNTED:
        return {"success_ids": success, "success_count": len(success),
                "failure_count": len(errors)}
    return {"success_ids": success, "failed_ids": [e["id"] for e in errors], "errors": errors}
