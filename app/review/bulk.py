"""Marking many incomes done at once: one PATCH each, side by side, logged as one action.

Each selected row carries the fingerprint of the values the reviewer saw in the list; a row
whose PATCH answer no longer matches it is put back (its flag reverted) and reported, exactly
like the single "done". Incomes the API refuses (e.g. processed ones, whose review flag is
locked) are reported with the API's message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from app.review import compare
from app.review.actions import DONE, NOT_DONE, write
from app.review.values import state
from app.store.review_log import record_action
from app.upstream import UpstreamError, ValidationError, run_parallel

MAX_BULK = 500


@dataclass
class BulkResult:
    """Which incomes were marked done, put back after a change, or refused (with why)."""

    done: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)
    action: object | None = None


def parse_selection(values: list[str]) -> list[tuple[int, str | None]]:
    """`<id>:<fingerprint>` (or a bare id) values of the row checkboxes, deduplicated."""
    seen, out = set(), []
    for value in values:
        raw_id, _sep, fp = str(value).partition(":")
        if raw_id.isdigit() and int(raw_id) not in seen:
            seen.add(int(raw_id))
            out.append((int(raw_id), fp or None))
    return out[:MAX_BULK]


def mark_done(api, company_id: int, actor, selection: list[tuple[int, str | None]]) -> BulkResult:
    """PATCH review_done on every selected income; revert those changed since they were seen."""
    answers = _run(api, {income_id: DONE for income_id, _fp in selection})
    result = BulkResult()
    changed = []
    for income_id, fp in selection:
        answer = answers[income_id]
        if isinstance(answer, UpstreamError):
            result.failed[income_id] = _message(answer)
        elif fp and compare.fingerprint(answer) != fp:
            changed.append(income_id)
        else:
            result.done.append(income_id)
    reverted = _run(api, dict.fromkeys(changed, NOT_DONE))
    result.changed = [i for i in changed if not isinstance(reverted[i], UpstreamError)]
    result.failed.update({i: _message(reverted[i]) for i in changed if i not in result.changed})
    if result.done:
        result.action = record_action(
            company_id, actor, "bulk_done", result.done,
            {str(i): NOT_DONE for i in result.done},
            {str(i): {**DONE, **state(answers[i])} for i in result.done})
    return result


def _run(api, bodies: dict[int, dict]) -> dict[int, object]:
    """PATCH each income with its body, side by side; an error is returned, not raised."""
    tasks = {str(income_id): partial(_safe_write, api, income_id, body)
             for income_id, body in bodies.items()}
    return {int(key): value for key, value in run_parallel(tasks).items()}


def _safe_write(api, income_id: int, body: dict):
    try:
        return write(api, income_id, body)
    except UpstreamError as exc:
        return exc


def _message(error: UpstreamError) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages()) or str(error)
    return str(error)
