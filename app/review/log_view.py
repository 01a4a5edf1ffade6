"""The review log as pages show it: labels, the last undoable action, per-income changes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from app.review.compare import describe, label
from app.review.undo import can_undo
from app.review.values import STATE_KEYS
from app.store.history import recent_actions

LABELS = {"done": _l("Done"), "save_done": _l("Saved and done"), "skip": _l("Skipped"),
          "bulk_done": _l("Bulk: marked done"), "undo": _l("Undo"),
          "conflict": _l("Not marked done: changed meanwhile")}
SCAN_FOR_LAST = 30


@dataclass(frozen=True)
class Line:
    """One income's change in an action: field label, before text, after text."""

    label: Any
    before: str
    after: str


def action_label(kind: str) -> str:
    """The translated name of an action kind."""
    return str(LABELS.get(kind, kind))


def last_undoable(company_id: int, actor):
    """This user's latest action that undo can still revert, or None."""
    for action in recent_actions(company_id, limit=SCAN_FOR_LAST):
        if action.actor_fp == actor.fp and action.kind != "conflict":
            return action if can_undo(action) else None
    return None


def lines(action, income_id: int, names: dict) -> list[Line]:
    """What the action changed on one income (only fields whose value differs)."""
    before = action.before.get(str(income_id)) or {}
    after = action.after.get(str(income_id)) or {}
    out = []
    for key, new in after.items():
        if key not in STATE_KEYS and before.get(key) != new:
            out.append(Line(label(key), describe(key, before.get(key), names),
                            describe(key, new, names)))
    return out
