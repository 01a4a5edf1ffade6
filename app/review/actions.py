"""The review writes: done, save and done, skip; each one logged in Bookdesk's own records.

"Done" is the step a reviewer repeats all day, so it costs one upstream call: the PATCH. The
API has no conditional write, so the check that nobody changed the income since the reviewer
looked runs on the PATCH's answer (the whole record after the write): if anything but the review
flag differs from what was shown, a second PATCH puts the flag back and the reviewer sees what
changed and decides. "Save and done" sends the reviewer's own changes, so it reads the income
first (app.forms then holds back any field someone else changed meanwhile) and writes once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.review import compare
from app.review.prefetch import DETAIL_FIELDS
from app.review.values import before_values, state
from app.store.review_log import record_action
from app.upstream.incomes import UPDATE

DONE = {"review_done": True}
NOT_DONE = {"review_done": False}


@dataclass
class Result:
    """What an action did: its kind, the record after it, the log entry, what changed."""

    kind: str
    record: dict | None = None
    action: object | None = None
    changes: list = field(default_factory=list)


def write(api, income_id: int, body: dict) -> dict:
    """PATCH an income; the answer is its detail (with line items, like the prefetch)."""
    return api.patch(UPDATE.format(id=income_id) + f"?fields={DETAIL_FIELDS}", json=body)


def done(api, company_id: int, actor, income_id: int, seen: dict | None,
         names: dict) -> Result:
    """Mark done with one write; withdraw it when the answer shows someone changed the income."""
    saved = write(api, income_id, DONE)
    changed = compare.changes(seen, saved, names) if seen is not None else []
    if changed:
        return _withdraw(api, company_id, actor, saved, seen, changed)
    action = record_action(company_id, actor, "done", [income_id],
                           {str(income_id): NOT_DONE}, {str(income_id): {**DONE, **state(saved)}})
    return Result("done", saved, action)


def _withdraw(api, company_id: int, actor, saved: dict, seen: dict, changed: list) -> Result:
    """Put the flag back; log what the reviewer was about to approve and what it is now."""
    reverted = write(api, saved["id"], NOT_DONE)
    now = compare.view(reverted, tuple(seen))
    action = record_action(company_id, actor, "conflict", [saved["id"]],
                           {str(saved["id"]): seen}, {str(saved["id"]): now})
    return Result("conflict", reverted, action, changed)


def save_done(api, company_id: int, actor, current: dict, body: dict) -> Result:
    """Send the reviewer's changes together with review_done (one write after the read)."""
    body = {**body, **DONE}
    saved = write(api, current["id"], body)
    action = record_action(company_id, actor, "save_done", [current["id"]],
                           {str(current["id"]): before_values(current, body)},
                           {str(current["id"]): {**body, **state(saved)}})
    return Result("save_done", saved, action)


def skip(company_id: int, actor, income_id: int) -> Result:
    """Log a skip (nothing changes upstream; undo brings the reviewer back to it)."""
    action = record_action(company_id, actor, "skip", [income_id], {}, {})
    return Result("skip", None, action)
