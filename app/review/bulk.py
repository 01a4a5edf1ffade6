"""Marking many incomes done at once: one PATCH each, side by side, logged as one action.

Each selected row carries the fingerprint of the values the reviewer saw in the list; a row
whose PATCH answer no longer matches it is put back (its flag reverted) and reported, exactly
like the single "done". Incomes the API refuses (e.g. processed ones, whose review flag is
locked) are reported with the API's message.

An authorisation refusal (403: a viewer's token, or two-factor authentication missing) is not
about one income but about every write: the first write goes alone, the rest side by side in
chunks, and after a 403 nothing more is sent (send_until_refused). What was done before it is
kept and reported, with the refusal and how many were not sent.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from app.params import whole
from app.review import compare
from app.review.actions import DONE, NOT_DONE, write
from app.review.values import state
from app.store.history import record_action
from app.upstream import PermissionDenied, UpstreamError, ValidationError, run_parallel

MAX_BULK = 500
# Writes sent side by side once the first one was accepted.
CHUNK = 8


@dataclass
class BulkResult:
    """Which incomes were marked done, put back after a change, or refused (with why)."""

    done: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)
    action: object | None = None
    refused: int | None = None
    not_sent: list[int] = field(default_factory=list)


def parse_selection(values: list[str]) -> list[tuple[int, str | None]]:
    """`<id>:<fingerprint>` (or a bare id) values of the row checkboxes, deduplicated."""
    seen, out = set(), []
    for value in values:
        raw_id, _sep, fp = str(value).partition(":")
        income_id = whole(raw_id, "ids", minimum=1)
        if income_id is not None and income_id not in seen:
            seen.add(income_id)
            out.append((income_id, fp or None))
    return out[:MAX_BULK]


def mark_done(api, company_id: int, actor, selection: list[tuple[int, str | None]]) -> BulkResult:
    """PATCH review_done on every selected income; revert those changed since they were seen.

    A 403 stops the run: the incomes after it are not sent (result.refused, result.not_sent).
    """
    answers = _run(api, {income_id: DONE for income_id, _fp in selection})
    result = BulkResult()
    changed = []
    for income_id, fp in selection:
        answer = answers.get(income_id)
        if answer is None:
            result.not_sent.append(income_id)
        elif isinstance(answer, PermissionDenied):
            result.refused = income_id
        elif isinstance(answer, UpstreamError):
            result.failed[income_id] = _message(answer)
        elif fp and compare.fingerprint(answer) != fp:
            changed.append(income_id)
        else:
            result.done.append(income_id)
    reverted = _run(api, dict.fromkeys(changed, NOT_DONE))
    result.changed = [i for i in changed if i in reverted
                      and not isinstance(reverted[i], UpstreamError)]
    result.failed.update({i: _message(reverted[i]) for i in changed
                          if i in reverted and i not in result.changed})
    if result.done:
        result.action = record_action(
            company_id, actor, "bulk_done", result.done,
            {str(i): NOT_DONE for i in result.done},
            {str(i): {**DONE, **state(answers[i])} for i in result.done})
    return result


def _run(api, bodies: dict[int, dict]) -> dict[int, object]:
    """PATCH each income with its body until a 403; an error is returned, not raised."""
    tasks = {income_id: partial(_safe_write, api, income_id, body)
             for income_id, body in bodies.items()}
    return send_until_refused(tasks)


def send_until_refused(tasks: dict[int, Callable[[], object]]) -> dict[int, object]:
    """Run one write per income: the first alone, then the rest side by side in chunks.

    Each task returns its answer or its UpstreamError. After a chunk with a PermissionDenied
    nothing more is sent: the incomes not sent are missing from the answers.
    """
    keys = list(tasks)
    chunks = [keys[:1]] + [keys[start:start + CHUNK] for start in range(1, len(keys), CHUNK)]
    answers: dict[int, object] = {}
    for chunk in chunks:
        found = run_parallel({str(key): tasks[key] for key in chunk})
        answers.update({int(key): value for key, value in found.items()})
        if any(isinstance(value, PermissionDenied) for value in found.values()):
            break
    return answers


def _safe_write(api, income_id: int, body: dict):
    try:
        return write(api, income_id, body)
    except UpstreamError as exc:
        return exc


def _message(error: UpstreamError) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages()) or str(error)
    return str(error)
