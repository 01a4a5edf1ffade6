"""Undo a logged review action: send back what it replaced, where its values still stand.

Undo reads each income first (undo is rare; the read makes it safe): a field that no longer
holds what the action sent was changed again since, by someone, and is left alone; the income
is reported instead of being overwritten. A document cancelled or reversed by a storno since
the action (or whose cancellation was revoked since) is left alone too: undo never brings a
cancelled document back into the review. Works from the database record alone, so it works the
same after a reload or from another tab.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from flask_babel import gettext as _

from app.review import bulk
from app.review.actions import write
from app.review.bulk import _message
from app.review.values import STATE_KEYS, stands
from app.store.review_log import mark_undone
from app.upstream import NotFound, PermissionDenied, UpstreamError
from app.upstream.incomes import DETAIL

UNDOABLE = ("done", "save_done", "bulk_done", "skip")
NOT_SENT = object()


@dataclass
class UndoResult:
    """Incomes put back, incomes left alone (changed since, or refused), and whether it ran."""

    ok: bool
    reverted: list[int] = field(default_factory=list)
    kept: dict[int, str] = field(default_factory=dict)
    message: str | None = None
    refused: int | None = None
    not_sent: list[int] = field(default_factory=list)


def can_undo(action) -> bool:
    """True for an action of an undoable kind that has not been undone."""
    return action is not None and action.kind in UNDOABLE and action.undone_at is None


def undo(api, company_id: int, actor, action) -> UndoResult:
    """Revert the action upstream, then mark it undone when anything was reverted.

    Two undos racing each other are safe: the second finds the values no longer standing.
    """
    if not can_undo(action):
        return UndoResult(False, message=_("This action cannot be undone (any more)."))
    result = UndoResult(True)
    if action.kind == "skip":
        result.reverted = list(action.income_ids)
    else:
        tasks = {i: partial(_revert, api, i, action.before.get(str(i)) or {},
                            action.after.get(str(i)) or {}) for i in action.income_ids}
        answers = bulk.send_until_refused(tasks)
        for income_id in action.income_ids:
            _sort(result, income_id, answers)
    if result.reverted and not mark_undone(company_id, action.id, actor):
        result.message = _("This action was already undone.")
    result.ok = bool(result.reverted)
    return result


def _sort(result: UndoResult, income_id: int, answers: dict) -> None:
    """File one income under reverted, kept (with why), refused or not sent (after a 403)."""
    answer = answers.get(income_id, NOT_SENT)
    if answer is NOT_SENT:
        result.not_sent.append(income_id)
    elif isinstance(answer, PermissionDenied):
        result.refused = income_id
    elif answer is None:
        result.reverted.append(income_id)
    else:
        result.kept[income_id] = answer


def _revert(api, income_id: int, before: dict, after: dict) -> str | PermissionDenied | None:
    """None when reverted; the refusal on a 403; else why the income was left as it is."""
    try:
        current = api.get(DETAIL.format(id=income_id))
        changed_state = _state_changed(after, current)
        if changed_state:
            return changed_state
        moved = [key for key, value in after.items()
                 if key not in STATE_KEYS and not stands(key, value, current)]
        if moved:
            return _("changed again since: %(fields)s", fields=", ".join(moved))
        write(api, income_id, {key: before[key] for key in after if key in before})
    except NotFound:
        return _("the income no longer exists")
    except PermissionDenied as exc:
        return exc
    except UpstreamError as exc:
        return _message(exc)
    return None


def _state_changed(after: dict, current: dict) -> str | None:
    """Why the document is no longer in the state the action left it in, or None."""
    # Entries logged before the state was recorded were made on live documents.
    was_cancelled = bool(after.get("is_cancelled", False))
    if bool(current.get("is_cancelled")) == was_cancelled:
        return None
    if current.get("is_cancelled"):
        return _("it was cancelled or reversed by a storno since; undo does not bring it back")
    return _("its cancellation was revoked since")
