"""What the review pages show: why an income waits (reasons), the queue's rows, the review
screen's form and what it shows beside it, the income's document, the log's labels and lines.

Reasons: the upstream keeps no reason next to needs_review, so each reason is derived: an
assignment without revenue type, no tags anywhere, how many of the company's policies match the
income now (the engine in app.policies, the same the editor previews with), a partner the
partner list does not know or created recently.

The review screen's form is app.forms' build_edit_form over a narrowed view of the record:
income tags and note, and per assignment revenue type, tags, job number and ledger number, each
an input only when the record's editable_fields says so. Amounts stay visible but read-only
(splitting belongs to the full edit form). Because the API replaces assignments whole, the
columns this screen hides are filled back into every row from the record before sending, so
nothing is lost.

The document: the CSP allows images and frames from 'self' only, and the upstream hands out
signed links on its own host, so the file is fetched by Bookdesk and passed on (the document
view in views.py): a PNG or JPEG as an image, a PDF framed beside the fields, anything else
(XML) offered as a download.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from flask_babel import lazy_gettext as _l

from app.exports import amount as amount_cell
from app.exports import day, day_and_time
from app.forms import build_edit_form
from app.forms.tables import base_rows, base_values, rows_changed
from app.identifiers import show_tax_number
from app.policies.engine import evaluate_valid
from app.policies.validate import InvalidConfig, ensure_valid, rules
from app.review.forms import ROW_KEYS, STATE_KEYS, describe, fingerprint, label, payload_row
from app.store.history import recent_actions
from app.templating import KINDS, Amount, Days, Words, amount, kind_label, record_number
from app.upstream.responses import id_names, ref

# Why an income needs attention.

REASON_LABELS = {
    "no_revenue_type": _l("No revenue type"),
    "no_tags": _l("No tags"),
    "several_policies": _l("Several policies match"),
    "no_policy": _l("No policy matches"),
    "new_partner": _l("New partner"),
    "unknown_partner": _l("Partner not in the partner list"),
    "flagged": _l("Flagged for review"),
}
TONES = {"no_revenue_type": "danger", "several_policies": "warn", "new_partner": "attention",
         "unknown_partner": "attention", "no_tags": "muted", "no_policy": "muted",
         "flagged": "muted"}


@dataclass(frozen=True)
class Reason:
    """One reason: a code, its label, optional detail (policy names) and a badge tone."""

    code: str
    detail: str | None = None

    @property
    def label(self) -> Any:
        """The translated label."""
        return REASON_LABELS[self.code]

    @property
    def tone(self) -> str:
        """The badge style."""
        return TONES[self.code]


@dataclass(frozen=True)
class Context:
    """What reasons need besides the record: policies, currency codes, new partner ids."""

    policies: dict | None = None
    codes: dict = field(default_factory=dict)
    new_partners: frozenset = frozenset()

    @property
    def has_policies(self) -> bool:
        """True when the company has at least one enabled policy."""
        return any(rule.get("enabled", True) is not False
                   for rule in rules(self.policies, "policies"))

    @cached_property
    def usable_policies(self) -> dict | None:
        """The policies when there are enabled ones and they validate (checked once, not per
        row); None otherwise: a broken configuration must not break the queue."""
        if not self.has_policies:
            return None
        try:
            ensure_valid(self.policies)
        except InvalidConfig:
            return None
        return self.policies


def missing_revenue_type(record: dict) -> bool:
    """True when the income has no assignment, or one without revenue type."""
    rows = record.get("assignments") or []
    return not rows or any(ref(row.get("revenue_type")) is None for row in rows)


def has_tags(record: dict) -> bool:
    """True when the income or any of its assignments carries a tag."""
    return bool(record.get("tags")) or any(row.get("tags") for row in
                                           record.get("assignments") or [])


def matched_policies(record: dict, context: Context) -> list[str] | None:
    """Names of the enabled policies that match the income now; None without policies."""
    config = context.usable_policies
    if config is None:
        return None
    try:
        outcome = evaluate_valid(config, record, context.codes)
    except Exception:  # noqa: BLE001 - an odd income must not break the queue
        return None
    names = [rule.get("name") or "?" for rule in rules(config, "policies")]
    return [names[index] for index in outcome.matched]


def policy_outcome(record: dict, context: Context) -> str | None:
    """'several', 'none' or 'one' policy matching; None when the company has none."""
    matched = matched_policies(record, context)
    if matched is None:
        return None
    return "none" if not matched else ("one" if len(matched) == 1 else "several")


def reasons(record: dict, context: Context) -> list[Reason]:
    """The reasons this income needs review, most pressing first."""
    found = []
    if missing_revenue_type(record):
        found.append(Reason("no_revenue_type"))
    matched = matched_policies(record, context)
    if matched is not None and len(matched) > 1:
        found.append(Reason("several_policies", ", ".join(matched)))
    found += _partner_reasons(record, context)
    if not has_tags(record):
        found.append(Reason("no_tags"))
    if matched == []:
        found.append(Reason("no_policy"))
    return found or [Reason("flagged")]


def _partner_reasons(record: dict, context: Context) -> list[Reason]:
    partner = ref(record.get("partner_id", record.get("partner")))
    if partner is None and record.get("partner_name"):
        return [Reason("unknown_partner")]
    return [Reason("new_partner")] if partner in context.new_partners else []


# The queue table's rows, formatted once in Python (app/templating.py says why).

SELECT = _l("Select %(number)s")


@dataclass(slots=True)
class Row:
    """One queue income as the table shows it."""

    id: int
    fingerprint: str
    number: str
    select_label: str
    kind: str
    partner: str
    tax_number: str | None
    issued: str
    gross: Amount
    reasons: list[tuple[str, str, str | None]]
    tags: list[str] = field(default_factory=list)


def queue_rows(items: list[dict], context: Context, codes: dict, tag_names: dict) -> list[Row]:
    """Rows for the queue table, with why each income waits and its fingerprint for bulk."""
    words = Words(kinds=KINDS, reasons=REASON_LABELS, select=SELECT)
    days = Days()
    return [_row(income, context, codes, tag_names, words, days) for income in items]


def _row(income: dict, context: Context, codes: dict, tag_names: dict, words: Words,
         days: Days) -> Row:
    number = record_number(income)
    return Row(
        id=income["id"], fingerprint=fingerprint(income), number=number,
        select_label=words["select"] % {"number": number},
        kind=words["kinds"].get(income.get("type"), str(income.get("type") or "")),
        partner=income.get("partner_name") or "—", tax_number=income.get("partner_tax_number"),
        issued=days[income.get("issued_at")],
        gross=amount(income.get("gross_amount"), codes.get(income.get("currency")), words.locale),
        reasons=[(reason.tone, words["reasons"][reason.code], reason.detail)
                 for reason in reasons(income, context)],
        tags=[tag_names.get(tag, f"#{tag}") for tag in income.get("tags") or []])


# The review screen's form.

FIELDS = ("tags", "note")
ASSIGNMENT_FIELDS = ("revenue_type", "net_amount", "gross_amount", "tags", "job_number",
                     "ledger_number_id")
ROW_INPUTS = ("revenue_type", "tags", "job_number", "ledger_number_id")
NAMED = ("revenue_types", "tags", "currencies", "ledger_numbers")


def narrowed(record: dict) -> dict:
    """The record with editable_fields cut down to what the review screen edits."""
    editable = record.get("editable_fields") or []
    keep = set(FIELDS) | {"assignments"} | {f"assignments.{name}" for name in ROW_INPUTS}
    return {**record, "editable_fields": [name for name in editable if name in keep]}


def build_form(record: dict, settings: dict, catalogs: dict, **form_kwargs):
    """The review form of an income (bound to the request's form data on POST)."""
    return build_edit_form(narrowed(record), catalogs, company=settings, fields=FIELDS,
                           assignment_fields=ASSIGNMENT_FIELDS, **form_kwargs)


def can_mark_done(record: dict) -> bool:
    """True when the API lets this income's review flag change."""
    return "review_done" in (record.get("editable_fields") or [])


def complete(body: dict, record: dict) -> dict:
    """The PATCH body with every assignment column the screen hides filled from the record."""
    if "assignments" not in body:
        return body
    editable = set(record.get("editable_fields") or [])
    hidden = [key for key in ROW_KEYS if key not in ROW_INPUTS and f"assignments.{key}" in editable]
    rows = record.get("assignments") or []
    by_id = {row.get("id"): row for row in rows}
    filled = []
    for index, row in enumerate(body["assignments"]):
        original = by_id.get(row.get("id")) or (rows[index] if index < len(rows) else {})
        whole = payload_row(original)
        filled.append({**{key: whole[key] for key in hidden}, **row})
    return {**body, "assignments": filled}


def is_dirty(form) -> bool:
    """True when the reviewer changed any input (compared with the values shown).

    Validity is not asked here: "done" leaves the fields alone, so a required revenue type
    that is still empty does not stop it (the reasons show it is missing).
    """
    form.check()
    base = base_values(form)
    for name, spec in form.layout.specs.items():
        if name in form.layout.editable and not spec.value_kind.same(form.values.get(name),
                                                                      base.get(name)):
            return True
    table = form.layout.table
    if table is None or not table.editable:
        return False
    return rows_changed(table, base_rows(form, table), form.rows.get(table.name) or [])


def after_conflict(form, latest: dict, settings: dict, catalogs: dict):
    """The form to show when someone else changed the income: the reviewer's own edits kept,
    everything they did not touch showing the current values, the snapshot the current record
    (so saving again applies exactly what is shown)."""
    base = base_values(form)
    typed = [name for name, spec in form.layout.specs.items() if name in form.layout.editable
             and not spec.value_kind.same(form.values.get(name), base.get(name))]
    table = form.layout.table
    table_typed = table is not None and table.editable and rows_changed(
        table, base_rows(form, table), form.rows.get(table.name) or [])
    fresh = build_form(latest, settings, catalogs, formdata=None)
    rows = [entry.data for entry in form.assignments.entries] if table_typed else []
    if rows and len(rows) == len(latest.get("assignments") or []):
        fresh.assignments.process(None, data=rows)
    for name in typed:
        fresh[name].data = form[name].data
    fresh.conflicts = list(form.conflicts)
    for name in form.conflicts:
        fresh[name].errors = list(form[name].errors)
    return fresh


def names(catalogs: dict) -> dict:
    """{catalogue: {id: name}} for describing values (currencies by code)."""
    out = {name: id_names(catalogs.get(name) or []) for name in NAMED}
    out["currencies"] = id_names(catalogs.get("currencies") or [], "code")
    return out


def line_items(record: dict) -> list[dict]:
    """The invoice lines worth showing beside the categorisation (name, quantity, gross)."""
    return [{"name": item.get("name"), "quantity": item.get("quantity"),
             "unit": item.get("unit"), "gross": item.get("gross_amount"),
             "vat": ref(item.get("vat_percent"))} for item in record.get("items") or []]


# The review log as pages show it.

ACTION_LABELS = {"done": _l("Done"), "save_done": _l("Saved and done"), "skip": _l("Skipped"),
          "bulk_done": _l("Bulk: marked done"), "undo": _l("Undo"),
          "conflict": _l("Not marked done: changed meanwhile")}
SCAN_FOR_LAST = 30
UNDOABLE = ("done", "save_done", "bulk_done", "skip")


@dataclass(frozen=True)
class Line:
    """One income's change in an action: field label, before text, after text."""

    label: Any
    before: str
    after: str


def action_label(kind: str) -> str:
    """The translated name of an action kind."""
    return str(ACTION_LABELS.get(kind, kind))


def can_undo(action) -> bool:
    """True for an action of an undoable kind that has not been undone."""
    return action is not None and action.kind in UNDOABLE and action.undone_at is None


def last_undoable(company_id: int, actor):
    """This user's latest action that undo can still revert, or None; those already undone
    are passed over, so pressing undo again steps back one more action."""
    for action in recent_actions(company_id, limit=SCAN_FOR_LAST):
        if action.actor_fp == actor.fp and can_undo(action):
            return action
    return None


def logged_number(action, income_id: int) -> str:
    """An income of a logged action as the queue named it then: its invoice number, else #id
    (entries logged before numbers were kept)."""
    number = (action.numbers or {}).get(str(income_id))
    return record_number({"id": income_id, "invoice_number": number})


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


# The exports: the queue of the current filter, the log as its page shows it.

def queue_header() -> list[str]:
    """The queue export's column titles in the page's language."""
    return [str(text) for text in (
        _l("Invoice number"), _l("Income type"), _l("Partner"), _l("Tax number"), _l("Issue date"),
        _l("Gross amount"), _l("Currency"), _l("Why"), _l("Tags"))]


def queue_row(context: Context, income: dict, lookups: dict) -> list:
    """One queued income as cells: the issue day a date, the gross a number, why it waits."""
    tags = lookups.get("tags", {})
    why = [f"{reason.label}: {reason.detail}" if reason.detail else str(reason.label)
           for reason in reasons(income, context)]
    return [record_number(income),
            kind_label(income.get("type")) if income.get("type") else "",
            income.get("partner_name") or "", show_tax_number(income.get("partner_tax_number")),
            day(income.get("issued_at")), amount_cell(income.get("gross_amount")),
            lookups.get("codes", {}).get(income.get("currency"), ""), "; ".join(why),
            ", ".join(tags.get(tag, f"#{tag}") for tag in income.get("tags") or [])]


def log_header() -> list[str]:
    """The review log export's column titles in the page's language."""
    return [str(text) for text in (
        _l("When"), _l("Time"), _l("Who"), _l("Action"), _l("Undone"), _l("Income"),
        _l("Field"), _l("Before"), _l("After"))]


def log_rows(actions, names: dict) -> list[list]:
    """The actions as the log shows them, newest first: one line per changed field of each
    income (one line for an income the action did not change)."""
    out = []
    for action in actions:
        head = [*day_and_time(action.created_at), action.actor or "",
                action_label(action.kind), str(_l("Yes") if action.undone_at else _l("No"))]
        for income_id in action.income_ids:
            changed = lines(action, income_id, names) or [Line("", "", "")]
            out += [[*head, logged_number(action, income_id), str(line.label), line.before,
                     line.after]
                    for line in changed]
    return out
