"""The review screen's form: the fields a reviewer changes, built like every edit form.

It is app.forms' build_edit_form over a narrowed view of the record: income tags and note, and
per assignment revenue type, tags, job number and ledger number, each an input only when the
record's editable_fields says so. Amounts stay visible but read-only (splitting belongs to the
full edit form). Because the API replaces assignments whole, the columns this screen hides are
filled back into every row from the record before sending, so nothing is lost.
"""
from __future__ import annotations

from app.forms import build_edit_form
from app.forms.diff import base_rows, base_values
from app.forms.tables import rows_changed
from app.review.compare import ref
from app.review.values import ROW_KEYS, payload_row
from app.upstream.responses import id_names

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
