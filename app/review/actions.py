"""The review writes on one income (done, save and done, skip; each logged in Bookdesk's own
records, app/store/history.py) and what must be filled before an income may be marked done.
Bulk done and undo, which send to many incomes side by side, are in app/review/bulk.py.

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
changed and decides. The answer cannot say whether the income was done before the write (the
flag reads true either way), so Bookdesk's own log answers that without a read: a done logged
by anyone that still stands in the answer was there first, and is reported, not logged as this
reviewer's (whose undo would take that review back). A done made outside Bookdesk is not in the
log: what the reviewer acted on, the read-ahead copy (dropped for every user of the company at
any write through this process, prefetch.py), is all that is known of it. A done whose answer
was lost is noted as an unknown one-time key (app/store/idempotency.py); the next done of the
income that finds it done logs it as this reviewer's, unless the log explains it otherwise;
bulk done (app/review/bulk.py) notes and finds its lost answers the same way.
"Save and done" sends the reviewer's own changes, so it reads the income first (app.forms then
holds back any field someone else changed meanwhile) and writes once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from flask_babel import gettext as _

from app.forms import spec_for
from app.numbers import to_decimal
from app.review.forms import STATE_KEYS, before_values, changes, stands, state, view
from app.review.prefetch import DETAIL_FIELDS
from app.store import idempotency
from app.store.history import recent_actions, record_action
from app.templating import record_number
from app.upstream import (
    Unavailable,
)
from app.upstream import incomes as income_api
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
    """Mark done with one write. A logged done that still stands (the copy shown was read
    before it, e.g. on another worker process) is theirs: reported, not logged as this
    reviewer's "not done -> done", so this reviewer's undo cannot take their review back.
    Otherwise an answer showing someone changed the income withdraws the flag."""
    try:
        saved = write(api, income_id, DONE)
    except Unavailable:
        note_lost(company_id, actor, income_id)
        raise
    changed = changes(seen, saved, names) if seen is not None else []
    if (theirs := done_standing(company_id, saved)) is not None:
        return Result("done_elsewhere", saved, theirs, changed)
    if changed:
        return _withdraw(api, company_id, actor, saved, seen, changed)
    return Result("done", saved, _log_done(company_id, actor, saved))


def _log_done(company_id: int, actor, record: dict):
    """Log this reviewer's done of an income that was not done (record: the income after it)."""
    key = str(record["id"])
    return record_action(company_id, actor, "done", [record["id"]], {key: NOT_DONE},
                         {key: {**DONE, **state(record)}}, numbers=numbers([record]))


DONE_KINDS = ("done", "save_done", "bulk_done")
RECENT = 200  # logged actions looked through for the latest one on an income


def done_standing(company_id: int, record: dict):
    """The income's latest logged action when it is a done whose values still stand in record:
    a reviewer marked it done as it is now. Done elsewhere than Bookdesk is not known here."""
    return standing_dones(company_id, {record["id"]: record}).get(record["id"])


def standing_dones(company_id: int, records: dict[int, dict]) -> dict[int, object]:
    """done_standing for many incomes ({id: record}) with one read of the log."""
    logged = recent_actions(company_id, limit=RECENT) if records else []
    found = {income_id: latest_done(logged, income_id, record)
             for income_id, record in records.items()}
    return {income_id: action for income_id, action in found.items() if action is not None}


def latest_done(logged: list, income_id: int, record: dict | None = None):
    """The latest of the logged actions (newest first) on the income when it is a done not
    undone (whose values still stand in record, when given); skips change nothing upstream
    and are passed over."""
    for action in logged:
        if income_id not in action.income_ids or action.kind == "skip":
            continue
        if action.kind not in DONE_KINDS or action.undone_at is not None:
            return None
        after = action.after.get(str(income_id)) or {}
        return action if record is None or all(
            stands(key, value, record) for key, value in after.items()
            if key not in STATE_KEYS) else None
    return None


# A done whose answer was lost (app/once.py keeps such a send as an "unknown" one-time key).

LOST_PURPOSE = "review-done"


def _lost_key(company_id: int, actor, income_id: int) -> str:
    return f"{LOST_PURPOSE}:{company_id}:{actor.fp}:{income_id}"


def note_lost(company_id: int, actor, income_id: int, sent: dict | None = None) -> None:
    """Remember that this reviewer's done (or save and done: sent holds its body and the values
    before) of the income got no answer: it may be applied."""
    key = _lost_key(company_id, actor, income_id)
    if idempotency.claim(key, company_id, LOST_PURPOSE).first:
        idempotency.unknown(key, {"income_id": income_id,
                                  "sent_at": datetime.now(UTC).isoformat(), **(sent or {})})


def _lost_note(company_id: int, actor, income_id: int) -> dict | None:
    """What note_lost kept of this reviewer's earlier send to the income that got no answer
    (None: there was none); the key is released either way (the attempt is settled now), so a
    later lost send can be noted again."""
    key = _lost_key(company_id, actor, income_id)
    found = idempotency.claim(key, company_id, LOST_PURPOSE)
    if found.first:
        idempotency.fail(key)
    return found.result if found.unknown and isinstance(found.result, dict) else None


def _sent_at(note: dict) -> datetime:
    return datetime.fromisoformat(note["sent_at"])


def _lost_since(company_id: int, actor, income_id: int) -> datetime | None:
    """When this reviewer's earlier done of the income that got no answer was sent, or None."""
    note = _lost_note(company_id, actor, income_id)
    return _sent_at(note) if note else None


def _logged_since(company_id: int, income_id: int, since: datetime) -> bool:
    """Whether anyone's action on the income was logged after since (then the log explains
    its state, not a send that got no answer)."""
    return any(income_id in action.income_ids and action.created_at > since
               for action in recent_actions(company_id, limit=RECENT))


def already_done(company_id: int, actor, record: dict) -> Result:
    """An income found done before anything was sent: "done_elsewhere" with the logged done
    that stands; "done" (logged now) when it is this reviewer's own done whose answer was lost;
    else "already" (done outside Bookdesk, or by whom the log does not say)."""
    return already_dones(company_id, actor, {record["id"]: record})[record["id"]]


def already_dones(company_id: int, actor, records: dict[int, dict]) -> dict[int, Result]:
    """already_done for many incomes ({id: record}, each found done) with one read of the log
    for the dones that stand (a done whose answer was lost reads it again, to see it landed)."""
    theirs = standing_dones(company_id, records)
    return {income_id: _already(company_id, actor, record, theirs.get(income_id))
            for income_id, record in records.items()}


def _already(company_id: int, actor, record: dict, theirs) -> Result:
    lost = _lost_since(company_id, actor, record["id"])  # settled even when theirs stands
    if theirs is not None:
        return Result("done_elsewhere", record, theirs)
    if lost is not None and not _logged_since(company_id, record["id"], lost):
        return Result("done", record, _log_done(company_id, actor, record))
    return Result("already", record)


def _withdraw(api, company_id: int, actor, saved: dict, seen: dict, changed: list) -> Result:
    """Put the flag back; log what the reviewer was about to approve and what it is now."""
    reverted = write(api, saved["id"], NOT_DONE)
    now = view(reverted, tuple(seen))
    action = record_action(company_id, actor, "conflict", [saved["id"]],
                           {str(saved["id"]): seen}, {str(saved["id"]): now},
                           numbers=numbers([saved]))
    return Result("conflict", reverted, action, changed)


def save_done(api, company_id: int, actor, current: dict, body: dict) -> Result:
    """Send the reviewer's changes together with review_done (one write after the read); a
    send whose answer is lost is noted with what it sent (lost_save_landed)."""
    body = {**body, **DONE}
    before = before_values(current, body)
    try:
        saved = write(api, current["id"], body)
    except Unavailable:
        note_lost(company_id, actor, current["id"], {"body": body, "before": before})
        raise
    return Result("save_done", saved, _log_save_done(company_id, actor, saved, body, before))


def _log_save_done(company_id: int, actor, record: dict, body: dict, before: dict):
    key = str(record["id"])
    return record_action(company_id, actor, "save_done", [record["id"]], {key: before},
                         {key: {**body, **state(record)}}, numbers=numbers([record]))


def lost_save_landed(company_id: int, actor, record: dict) -> Result | None:
    """This reviewer's "save and done" whose answer was lost, found applied in record: logged
    as theirs now, since what changed since they looked is what they sent; else None."""
    if not record.get("review_done"):
        return None
    sent = _lost_note(company_id, actor, record["id"]) or {}
    body = sent.get("body")
    if not body or _logged_since(company_id, record["id"], _sent_at(sent)) or not all(
            stands(key, value, record) for key, value in body.items()):
        return None
    return Result("save_done", record,
                  _log_save_done(company_id, actor, record, body, sent.get("before") or {}))


def skip(company_id: int, actor, income_id: int, seen: dict | None) -> Result:
    """Log a skip (nothing changes upstream; undo brings the reviewer back to it); seen is the
    income as the screen showed it, when it is at hand."""
    action = record_action(company_id, actor, "skip", [income_id], {}, {},
                           numbers=numbers([seen]) if seen else None)
    return Result("skip", None, action)
