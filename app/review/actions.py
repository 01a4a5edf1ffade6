"""The review writes (done, save and done, skip, bulk done, undo; each logged in Bookdesk's own
records, app/store/history.py) and what must be filled before an income may be marked done.

Before "done" (spec 2.1, 4.2): the API takes a bare review flag even when the income is not
complete, and the books are then wrong without anyone noticing; so "done" is refused before any
write (missing, show, refused) while:
- the company uses advanced accounting and an assignment has no revenue type (or there is
  no assignment at all: spec 4.2 create rule 1, at least one revenue categorisation);
- only one of a pair the API wants together is set: VAT period type and start, accounting
  period start and end (spec 4.2 update rules 6, 7), or the period starts after it ends;
- the income is in a foreign currency without an actual exchange rate (create rule 2).
The check reads a record-shaped dict: the detail, or the detail with the reviewer's changes
applied (references as ids or {id, name} objects alike), or (bulk "done") the list record: the
list carries no VAT period fields, so that pair is not checked there (the API keeps it whole on
every write, so an unedited income has both or neither).

"Done" is the step a reviewer repeats all day, so it costs one upstream call: the PATCH. The
API has no conditional write, so the check that nobody changed the income since the reviewer
looked runs on the PATCH's answer (the whole record after the write): if anything but the review
flag differs from what was shown, a second PATCH puts the flag back and the reviewer sees what
changed and decides. "Save and done" sends the reviewer's own changes, so it reads the income
first (app.forms then holds back any field someone else changed meanwhile) and writes once.

Bulk done: one PATCH each, side by side, logged as one action. Each selected row carries the
fingerprint of the values the reviewer saw in the list; a row whose PATCH answer no longer
matches it is put back (its flag reverted) and reported, exactly like the single "done".
Incomes the API refuses (e.g. processed ones, whose review flag is locked) are reported with the
API's message. An authorisation refusal (403: a viewer's token, or two-factor authentication
missing) is not about one income but about every write: the first write goes alone, the rest
side by side in chunks, and after a 403 nothing more is sent (send_until_refused). What was done
before it is kept and reported, with the refusal and how many were not sent.

Undo reads each income first (undo is rare; the read makes it safe): a field that no longer
holds what the action sent was changed again since, by someone, and is left alone; the income
is reported instead of being overwritten. A document cancelled or reversed by a storno since
the action (or whose cancellation was revoked since) is left alone too: undo never brings a
cancelled document back into the review. Works from the database record alone, so it works the
same after a reload or from another tab.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.forms import spec_for
from app.forms.filters import whole
from app.numbers import to_decimal
from app.review.forms import STATE_KEYS, before_values, changes, fingerprint, stands, state, view
from app.review.prefetch import DETAIL_FIELDS
from app.review.present import can_undo
from app.store.history import mark_undone, recent_actions, record_action
from app.templating import record_number
from app.upstream import (
    NotFound,
    PermissionDenied,
    Unavailable,
    UpstreamError,
    run_parallel,
)
from app.upstream import incomes as income_api
from app.upstream.errors import failure_text
from app.upstream.responses import ref

# What "done" requires first.

PAIRS = (("vat_period_type", "vat_period_started_at"),
         ("accounting_period_start", "accounting_period_end"))


@dataclass(frozen=True)
class Missing:
    """One value missing: the assignment position (None: the income itself), field, why."""

    row: int | None
    field: str
    message: str


def missing(record: dict, settings: dict) -> list[Missing]:
    """Everything the API will require that the income lacks (empty: it may be done)."""
    return [*_revenue_types(record, settings), *_pairs(record), *_period(record),
            *_exchange_rate(record, settings)]


def merged(record: dict, body: dict) -> dict:
    """The record as it will be after a PATCH with `body` (top-level keys replaced)."""
    return {**record, **body}


def _revenue_types(record: dict, settings: dict) -> list[Missing]:
    if not settings.get("advanced_accounting"):
        return []
    rows = record.get("assignments") or []
    if not rows:
        return [Missing(None, "assignments", _(
            "Add a revenue categorisation: the company uses advanced accounting, which needs "
            "one before the income is done."))]
    return [Missing(index, "revenue_type", _(
        "Choose a revenue type: the company uses advanced accounting, which needs one on "
        "every row before the income is done."))
        for index, row in enumerate(rows) if ref(row.get("revenue_type")) in (None, "")]


def _pairs(record: dict) -> list[Missing]:
    found = []
    for first, second in PAIRS:
        if first not in record and second not in record:
            continue
        filled = {name: record.get(name) not in (None, "") for name in (first, second)}
        if filled[first] != filled[second]:
            empty = first if not filled[first] else second
            found.append(Missing(None, empty, _(
                "Fill this in as well: the accounting service wants both values of the pair, "
                "or neither.")))
    return found


def _period(record: dict) -> list[Missing]:
    start, end = record.get("accounting_period_start"), record.get("accounting_period_end")
    if start and end and str(start) > str(end):
        return [Missing(None, "accounting_period_start",
                        _("The start may not be after the end of the period."))]
    return []


def _exchange_rate(record: dict, settings: dict) -> list[Missing]:
    currency, own = record.get("currency"), settings.get("default_currency_name")
    code = currency.get("code") if isinstance(currency, dict) else None
    rate = to_decimal(record.get("exchange_rate"))
    if not code or not own or code == own or rate not in (None, 1):
        return []
    return [Missing(None, "exchange_rate", _(
        "Enter the actual exchange rate: the currency is not %(code)s, the company's own.",
        code=own))]


def show(form, found: list[Missing]) -> None:
    """Put each message on its field or table cell of the review form (else above the form)."""
    table = form.layout.table
    for item in found:
        if item.row is None and form.is_editable(item.field):
            form.add_error(item.field, item.message)
            continue
        if item.row is None:
            form.form_errors.append(f"{spec_for(item.field).label}: {item.message}")
            continue
        cell = _cell(form, table, item)
        if cell is not None:
            cell.errors = [*cell.errors, item.message]
        else:
            form.row_errors.setdefault("assignments", {}).setdefault(item.row, []).append(
                item.message)
    if found:
        form.form_errors.append(_("Not marked done: fill in what is marked first. Nothing was "
                                  "sent."))


def _cell(form, table, item: Missing):
    if table is None or not table.editable or item.field not in table.editable:
        return None
    entries = form[table.name].entries
    return entries[item.row][item.field] if item.row < len(entries) else None


def refused(records: dict[int, dict], settings: dict, codes: dict) -> dict[int, str]:
    """{id: what is missing} for the incomes of a bulk "done" that may not be done yet, checked
    on the records in hand (list or detail shape; codes: currency id -> ISO code)."""
    found = {income_id: missing(_with_code(record, codes), settings)
             for income_id, record in records.items()}
    return {income_id: _summary(items) for income_id, items in found.items() if items}


def _with_code(record: dict, codes: dict) -> dict:
    """A list record names its currency by id; the exchange-rate check needs its code."""
    currency = record.get("currency")
    if currency is None or isinstance(currency, dict):
        return record
    return {**record, "currency": {"id": currency, "code": codes.get(currency)}}


def _summary(found: list[Missing]) -> str:
    return " ".join(dict.fromkeys(item.message for item in found))


# One income: done, save and done, skip.

DONE = {"review_done": True}
NOT_DONE = {"review_done": False}


@dataclass
class Result:
    """What an action did: its kind, the record after it, the log entry, what changed."""

    kind: str
    record: dict | None = None
    action: object | None = None
    changes: list = field(default_factory=list)


def numbers(records) -> dict[str, str]:
    """The log's names of these incomes: id (as a string) to invoice number or #id."""
    return {str(record["id"]): record_number(record) for record in records}


def write(api, income_id: int, body: dict) -> dict:
    """PATCH an income; the answer is its detail (with line items, like the prefetch)."""
    return income_api.update(api, income_id, body, fields=DETAIL_FIELDS)


def done(api, company_id: int, actor, income_id: int, seen: dict | None,
         names: dict) -> Result:
    """Mark done with one write; withdraw it when the answer shows someone changed the income,
    unless their change was a done that still stands (withdrawing would undo their review)."""
    saved = write(api, income_id, DONE)
    changed = changes(seen, saved, names) if seen is not None else []
    if changed and (theirs := done_standing(company_id, saved)) is not None:
        return Result("done_elsewhere", saved, theirs, changed)
    if changed:
        return _withdraw(api, company_id, actor, saved, seen, changed)
    action = record_action(company_id, actor, "done", [income_id],
                           {str(income_id): NOT_DONE}, {str(income_id): {**DONE, **state(saved)}},
                           numbers=numbers([saved]))
    return Result("done", saved, action)


DONE_KINDS = ("done", "save_done", "bulk_done")
RECENT = 200  # logged actions looked through for the latest one on an income


def done_standing(company_id: int, record: dict):
    """The income's latest logged action when it is a done whose values still stand in record:
    a reviewer marked it done as it is now. Done elsewhere than Bookdesk is not known here."""
    income_id = record["id"]
    for action in recent_actions(company_id, limit=RECENT):
        if income_id not in action.income_ids:
            continue
        after = action.after.get(str(income_id)) or {}
        standing = action.kind in DONE_KINDS and action.undone_at is None and all(
            stands(key, value, record) for key, value in after.items() if key not in STATE_KEYS)
        return action if standing else None
    return None


def _withdraw(api, company_id: int, actor, saved: dict, seen: dict, changed: list) -> Result:
    """Put the flag back; log what the reviewer was about to approve and what it is now."""
    reverted = write(api, saved["id"], NOT_DONE)
    now = view(reverted, tuple(seen))
    action = record_action(company_id, actor, "conflict", [saved["id"]],
                           {str(saved["id"]): seen}, {str(saved["id"]): now},
                           numbers=numbers([saved]))
    return Result("conflict", reverted, action, changed)


def save_done(api, company_id: int, actor, current: dict, body: dict) -> Result:
    """Send the reviewer's changes together with review_done (one write after the read)."""
    body = {**body, **DONE}
    saved = write(api, current["id"], body)
    action = record_action(company_id, actor, "save_done", [current["id"]],
                           {str(current["id"]): before_values(current, body)},
                           {str(current["id"]): {**body, **state(saved)}},
                           numbers=numbers([saved]))
    return Result("save_done", saved, action)


def skip(company_id: int, actor, income_id: int, seen: dict | None) -> Result:
    """Log a skip (nothing changes upstream; undo brings the reviewer back to it); seen is the
    income as the screen showed it, when it is at hand."""
    action = record_action(company_id, actor, "skip", [income_id], {}, {},
                           numbers=numbers([seen]) if seen else None)
    return Result("skip", None, action)


# Many incomes at once.

MAX_BULK = 500
# Writes sent side by side once the first one was accepted.
CHUNK = 8


@dataclass
class BulkResult:
    """Which incomes were marked done, put back after a change, refused (with why), or got no
    answer (unconfirmed: they may be done)."""

    done: list[int] = field(default_factory=list)
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


def mark_done(api, company_id: int, actor, selection: list[tuple[int, str | None]]) -> BulkResult:
    """PATCH review_done on every selected income; revert those changed since they were seen.

    A 403 stops the run: the incomes after it are not sent (result.refused, result.not_sent).
    """
    answers = _run(api, {income_id: DONE for income_id, _fp in selection})
    result = BulkResult()
    changed = [income_id for income_id, fp in selection
               if _file_answer(result, income_id, fp, answers.get(income_id))]
    _revert_changed(api, result, changed)
    if result.done:
        result.action = record_action(
            company_id, actor, "bulk_done", result.done,
            {str(i): NOT_DONE for i in result.done},
            {str(i): {**DONE, **state(answers[i])} for i in result.done},
            numbers=numbers(answers[i] for i in result.done))
    return result


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
    """Incomes put back, incomes left alone (changed since, or refused), and whether it ran."""

    ok: bool
    reverted: list[int] = field(default_factory=list)
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
        tasks = {i: partial(_revert, api, i, action.before.get(str(i)) or {},
                            action.after.get(str(i)) or {}) for i in action.income_ids}
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
    elif answer is None:
        result.reverted.append(income_id)
    elif isinstance(answer, UpstreamError):
        result.kept[income_id] = failure_text(answer)
    else:
        result.kept[income_id] = str(answer)


def _revert(api, income_id: int, before: dict, after: dict) -> object:
    """None when reverted; the upstream's error; else why the income was left as it is.

    It runs on the pool, outside the request: reasons stay lazy and errors are returned, so
    both are put into words in the request thread (_sort), in the page's language.
    """
    try:
        current = income_api.get(api, income_id)
        changed_state = _state_changed(after, current)
        if changed_state:
            return changed_state
        moved = [key for key, value in after.items()
                 if key not in STATE_KEYS and not stands(key, value, current)]
        if moved:
            return _l("changed again since: %(fields)s", fields=", ".join(moved))
        write(api, income_id, {key: before[key] for key in after if key in before})
    except NotFound:
        return _l("the income no longer exists")
    except UpstreamError as exc:
        return exc
    return None


def _state_changed(after: dict, current: dict) -> str | None:
    """Why the document is no longer in the state the action left it in, or None."""
    # Entries logged before the state was recorded were made on live documents.
    was_cancelled = bool(after.get("is_cancelled", False))
    if bool(current.get("is_cancelled")) == was_cancelled:
        return None
    if current.get("is_cancelled"):
        return _l("it was cancelled or reversed by a storno since; undo does not bring it back")
    return _l("its cancellation was revoked since")
