"""Many incomes at once: bulk done and the undo of a logged review action (app/review/actions.py
holds the writes on one income, what done requires first, and the log's reading of who marked
an income done).

Bulk done: one PATCH each, side by side, logged as one action. Each selected row carries the
fingerprint of the values the reviewer saw in the list; a row whose PATCH answer no longer
matches it is put back (its flag reverted) and reported, exactly like the single "done".
The selection is read just before the writes (flow.selected_records): an income found done is
not sent, and one whose answer shows a logged done standing is not logged as this reviewer's;
both are reported with who marked them done, when the log knows.
A write whose answer was lost (it may be stored) is reported unconfirmed and noted as the single
done notes its own (actions.note_lost): the reviewer's next done of the income, single or bulk,
that finds it done logs it as theirs, once.
Incomes the API refuses (e.g. processed ones, whose review flag is locked) are reported with the
API's message. An authorisation refusal (403: a viewer's token, or two-factor authentication
missing) is not about one income but about every write: the first write goes alone, the rest
side by side in chunks, and after a 403 nothing more is sent (send_until_refused). What was done
before it is kept and reported, with the refusal and how many were not sent.

Undo reads each income first (undo is rare; the read makes it safe): a field that no longer
holds what the action sent was changed again since, by someone, and is left alone; the income
is reported instead of being overwritten. A document cancelled or reversed by a storno since
the action (or whose cancellation was revoked since) is left alone too: undo never brings a
cancelled document back into the review. An income whose done was logged, and still stood,
before the action keeps its flag: the action did not set it (entries logged before done looked
at the log may say it did). A value the API will not take back empty stays as the action left
it, and the rest goes back: a revenue type the action filled in (the API takes no revenue
categorisation row without one); such an income counts as put back and names what stayed
(UndoResult.partly). Works from the database record alone, so it works the same after a reload
or from another tab. report_undo puts what an undo did into the page's words.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from flask import flash
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.forms import settings_and_catalogs
from app.forms.filters import whole
from app.incomes.flow import FORM_CATALOGS
from app.review.actions import (
    DONE,
    DONE_KINDS,
    NOT_DONE,
    RECENT,
    already_dones,
    latest_done,
    note_lost,
    numbers,
    standing_dones,
    write,
)
from app.review.forms import STATE_KEYS, fingerprint, stands, state
from app.review.present import can_undo, names
from app.store.history import mark_undone, recent_actions, record_action
from app.upstream import NotFound, PermissionDenied, Unavailable, UpstreamError, run_parallel
from app.upstream import incomes as income_api
from app.upstream.errors import failure_text
from app.upstream.responses import ref

# Many incomes at once.

MAX_BULK = 500
# Writes sent side by side once the first one was accepted.
CHUNK = 8


@dataclass
class BulkResult:
    """Which incomes were marked done, found done already (by whom, when the log knows: not
    this reviewer's to undo), put back after a change, refused (with why), or got no answer
    (unconfirmed: they may be done)."""

    done: list[int] = field(default_factory=list)
    already: dict[int, str | None] = field(default_factory=dict)
    changed: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)
    action: object | None = None
    refused: int | None = None
    not_sent: list[int] = field(default_factory=list)
    unconfirmed: list[int] = field(default_factory=list)


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


def mark_done(api, company_id: int, actor, selection: list[tuple[int, str | None]],
              records: dict[int, dict] | None = None) -> BulkResult:
    """PATCH review_done on every selected income; revert those changed since they were seen.

    Incomes the records (read just before) show done are not sent; those a logged done that
    stands in the answer shows done by someone meanwhile are not this reviewer's: neither is
    logged as theirs (result.already). A 403 stops the run: the incomes after it are not sent
    (result.refused, result.not_sent). A lost answer is noted (result.unconfirmed).
    """
    result = BulkResult(already=_found_done(company_id, actor, records or {}))
    selection = [(income_id, fp) for income_id, fp in selection if income_id not in result.already]
    answers = _run(api, {income_id: DONE for income_id, _fp in selection})
    result.already.update((income_id, action.actor) for income_id, action in standing_dones(
        company_id, {i: a for i, a in answers.items() if isinstance(a, dict)}).items())
    changed = [income_id for income_id, fp in selection if income_id not in result.already
               and _file_answer(result, income_id, fp, answers.get(income_id))]
    _revert_changed(api, result, changed)
    _record(company_id, actor, result, answers)
    return result


def _record(company_id: int, actor, result: BulkResult, answers: dict[int, object]) -> None:
    """Note each write whose answer was lost (actions.note_lost, as the single done does), and
    log the incomes marked done as one action."""
    for income_id in result.unconfirmed:
        note_lost(company_id, actor, income_id)
    if result.done:
        result.action = record_action(
            company_id, actor, "bulk_done", result.done,
            {str(i): NOT_DONE for i in result.done},
            {str(i): {**DONE, **state(answers[i])} for i in result.done},
            numbers=numbers(answers[i] for i in result.done))


def _found_done(company_id: int, actor, records: dict[int, dict]) -> dict[int, str | None]:
    """{id: who marked it done, when the log knows} of the records that are done already; this
    reviewer's own done whose answer was lost is logged as theirs now and named by no one, as
    the single done says of it (actions.already_done)."""
    done = {income_id: record for income_id, record in records.items()
            if record.get("review_done")}
    found = already_dones(company_id, actor, done)
    return {income_id: result.action.actor if result.kind == "done_elsewhere" else None
            for income_id, result in found.items()}


def _file_answer(result: BulkResult, income_id: int, fp: str | None, answer) -> bool:
    """File one review_done answer into result; True when the income had changed since it was
    seen (fingerprint fp), so it is to be reverted."""
    if answer is None:
        result.not_sent.append(income_id)
    elif isinstance(answer, PermissionDenied):
        result.refused = income_id
    elif isinstance(answer, Unavailable):  # sent, answer lost: it may have been stored
        result.unconfirmed.append(income_id)
    elif isinstance(answer, UpstreamError):
        result.failed[income_id] = failure_text(answer)
    elif fp and fingerprint(answer) != fp:
        return True
    else:
        result.done.append(income_id)
    return False


def _revert_changed(api, result: BulkResult, changed: list[int]) -> None:
    """Set the changed incomes back to not done: reverted ones go to result.changed, failed
    reverts to result.failed with their message (those a 403 left unsent to neither)."""
    reverted = _run(api, dict.fromkeys(changed, NOT_DONE))
    result.changed = [i for i in changed if i in reverted
                      and not isinstance(reverted[i], UpstreamError)]
    result.failed.update({i: failure_text(reverted[i]) for i in changed
                          if i in reverted and i not in result.changed})


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


# Undo a logged action.

NOT_SENT = object()


@dataclass
class UndoResult:
    """Incomes put back (partly: {id: the revenue type ids that stayed}), incomes left alone
    (changed since, or refused), and whether it ran."""

    ok: bool
    reverted: list[int] = field(default_factory=list)
    partly: dict[int, list[int]] = field(default_factory=dict)
    kept: dict[int, str] = field(default_factory=dict)
    message: str | None = None
    refused: int | None = None
    not_sent: list[int] = field(default_factory=list)


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
        done_by = {i: done.actor for i, done in earlier_dones(company_id, action).items()}
        tasks = {i: partial(_revert, api, i, action.before.get(str(i)) or {},
                            action.after.get(str(i)) or {}, done_by.get(i))
                 for i in action.income_ids}
        answers = send_until_refused(tasks)
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
    elif answer is None or isinstance(answer, Kept):
        result.reverted.append(income_id)
        if answer is not None:
            result.partly[income_id] = answer.revenue_types
    elif isinstance(answer, UpstreamError):
        result.kept[income_id] = failure_text(answer)
    else:
        result.kept[income_id] = str(answer)


def earlier_dones(company_id: int, action) -> dict[int, object]:
    """{id: the done logged before action, the latest action on the income then and not
    undone} of action's incomes: their review flag was set already, so action did not change
    it (an entry logged before this was checked may say it did) and its undo must leave it."""
    if action.kind not in DONE_KINDS:
        return {}
    logged = [earlier for earlier in recent_actions(company_id, limit=RECENT)
              if earlier.id < action.id]
    found = {income_id: latest_done(logged, income_id) for income_id in action.income_ids}
    return {income_id: done for income_id, done in found.items() if done is not None}


@dataclass(frozen=True)
class Kept:
    """An income put back but for the revenue types the action filled in (their ids)."""

    revenue_types: list[int]


def _revert(api, income_id: int, before: dict, after: dict,
            done_by: str | None = None) -> object:
    """None when reverted; Kept when reverted but for the revenue types the action filled in;
    the upstream's error; else why the income was left as it is.
    done_by: who had marked it done before the action (the flag is then left as it is).

    It runs on the pool, outside the request: reasons stay lazy and errors are returned, so
    both are put into words in the request thread (_sort), in the page's language.
    """
    if done_by is not None:
        after = {key: value for key, value in after.items() if key != "review_done"}
        if all(key in STATE_KEYS for key in after):
            return _l("%(who)s had marked it done before this action, so undo leaves it done",
                      who=done_by)
    try:
        current = income_api.get(api, income_id)
        changed_state = _state_changed(after, current)
        if changed_state:
            return changed_state
        moved = [key for key, value in after.items()
                 if key not in STATE_KEYS and not stands(key, value, current)]
        if moved:
            return _l("changed again since: %(fields)s", fields=", ".join(moved))
        body, kept = _sendable(before, after)
        write(api, income_id, body)
    except NotFound:
        return _l("the income no longer exists")
    except UpstreamError as exc:
        return exc
    return Kept(kept) if kept else None


def _sendable(before: dict, after: dict) -> tuple[dict, list[int]]:
    """The values to send back, and the revenue types the action filled in that stay: the API
    takes no revenue categorisation row without one (nor an empty list of rows)."""
    body = {key: before[key] for key in after if key in before}
    if "assignments" not in body:
        return body, []
    filled = after.get("assignments") or []
    rows = _typed(body["assignments"], filled)
    if rows is None:  # no row to go back to: the categorisation stays whole
        del body["assignments"]
        return body, [ref(row.get("revenue_type")) for row in filled]
    body["assignments"] = rows
    return body, [row["revenue_type"] for row, old in zip(rows, before["assignments"],
                                                          strict=True) if _untyped(old)]


def _typed(rows: list[dict], filled: list[dict]) -> list[dict] | None:
    """rows with each empty revenue type taken from the action's row at the same place; None
    when there is no row, or one is still left without a type."""
    typed = [{**row, "revenue_type": ref(filled[n].get("revenue_type")) if n < len(filled)
              else None} if _untyped(row) else row for n, row in enumerate(rows)]
    return typed if typed and not any(_untyped(row) for row in typed) else None


def _untyped(row: dict) -> bool:
    return ref(row.get("revenue_type")) in (None, "")


def _state_changed(after: dict, current: dict) -> str | None:
    """Why the document is no longer in the state the action left it in, or None."""
    # Entries logged before the state was recorded were made on live documents.
    was_cancelled = bool(after.get("is_cancelled", False))
    if bool(current.get("is_cancelled")) == was_cancelled:
        return None
    if current.get("is_cancelled"):
        return _l("it was cancelled or reversed by a storno since; undo does not bring it back")
    return _l("its cancellation was revoked since")


def report_undo(api, result: UndoResult, number: Callable[[int], str]) -> None:
    """Flash what an undo did, in the page's language (number names an income)."""
    if result.message and not result.ok:
        flash(result.message, "warning")
        return
    whole = [income_id for income_id in result.reverted if income_id not in result.partly]
    if whole:
        flash(_("Undone. Incomes back as they were: %(num)s.", num=len(whole)), "success")
    elif not result.partly:
        flash(_("Nothing was undone."), "warning")
    _report_partly(api, result.partly, number)
    for income_id, why in result.kept.items():
        flash(_("%(number)s was left as it is: %(reason)s", number=number(income_id),
                reason=why), "warning")
    if result.refused is not None:
        flash(_("Stopped at the first refusal: the accounting service does not let your token "
                "change incomes (%(number)s was refused). Put back before that: %(done)s. Not "
                "sent: %(left)s.", number=number(result.refused), done=len(result.reverted),
                left=len(result.not_sent)), "error")


def _report_partly(api, partly: dict[int, list[int]],
                   number: Callable[[int], str]) -> None:
    """The incomes put back but for the revenue types the action filled in, named."""
    if not partly:
        return
    _settings, catalogs = settings_and_catalogs(api, FORM_CATALOGS)
    types = names(catalogs)["revenue_types"]
    for income_id, kept in partly.items():
        flash(_("%(number)s is waiting for review again and its other values are back, but its "
                "revenue type stays %(types)s: the accounting service does not accept an empty "
                "revenue type.", number=number(income_id),
                types=", ".join(types.get(t, f"#{t}") for t in kept)), "warning")
