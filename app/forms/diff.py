"""Payload diffing: send what the user changed, plus what rules tie to it, and nothing else.

The form carries a snapshot of the values it was rendered with (`base_state`). The diff is
taken against that snapshot, so a field someone else changed meanwhile is not overwritten by
the stale value still in the form; where the user and someone else both changed a field, the
change is held back as a conflict and the field says so.
"""
from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _

from app.forms.display import display_text
from app.forms.registry import PAIRS
from app.forms.tables import dump_rows, load_rows, rows_changed


def snapshot(layout) -> dict:
    """The editable values as rendered (JSON-ready): fields and table rows."""
    fields = {name: spec.value_kind.dump(spec.value_kind.load(layout.record.get(name)))
              for name, spec in layout.specs.items() if name in layout.editable}
    table = layout.table
    rows = None
    if table is not None and table.editable:
        rows = [{k: _dump_cell(table, k, v) for k, v in row.items()} for row in load_rows(table)]
    return {"fields": fields, "rows": rows}


def _dump_cell(table, name: str, value: Any) -> Any:
    if name == "id":
        return value
    spec = next(s for s in table.columns if s.name == name)
    return spec.value_kind.dump(value)


def _state(form) -> dict:
    if "state" not in form.__dict__:
        try:
            state = json.loads(form.base_state.data or "")
        except (TypeError, ValueError):
            state = None
        form.__dict__["state"] = state if isinstance(state, dict) else snapshot(form.layout)
    return form.__dict__["state"]


def base_values(form) -> dict:
    """The rendered values of the editable fields, as Python values."""
    stored = _state(form).get("fields") or {}
    return {name: spec.value_kind.load(stored.get(name)) for name, spec in form.layout.specs.items()
            if name in form.layout.editable}


def base_rows(form, table) -> list[dict]:
    """The rendered rows of a table, as Python values (the record's when not stored)."""
    stored = _state(form).get("rows") if table.name == "assignments" else None
    if not isinstance(stored, list):
        return load_rows(table)
    specs = {spec.name: spec for spec in table.columns}
    return [{k: (v if k == "id" else specs[k].value_kind.load(v)) for k, v in row.items()
             if k == "id" or k in specs} for row in stored if isinstance(row, dict)]


def changes(form) -> dict:
    """The PATCH body, or {} with form.conflicts set when someone else changed the same field.

    After a conflict the form shows the other party's values where the user had not
    touched a field, and a fresh snapshot, so saving again applies exactly what is shown.
    """
    payload, theirs = _classify(form, base_values(form))
    if form.conflicts:
        _refresh(form, theirs)
        return {}
    _add_pairs(form, payload)
    _add_table(form, payload)
    allowed = set(form.layout.editable) | (
        {"assignments"} & set(form.record.get("editable_fields") or []))
    return {key: value for key, value in payload.items() if key in allowed}


def _classify(form, base: dict) -> tuple[dict, list[str]]:
    """(the user's changes, fields only someone else changed); conflicts go on the form."""
    payload, theirs = {}, []
    for name, spec in form.layout.specs.items():
        if name not in form.layout.editable:
            continue
        kind, new = spec.value_kind, form.values.get(name)
        current = kind.load(form.record.get(name))
        if kind.same(new, base.get(name)):
            theirs += [] if kind.same(current, new) else [name]
        elif not kind.same(current, base.get(name)) and not kind.same(current, new):
            _conflict(form, name, display_text(spec, form.record.get(name), form.record,
                                               form.layout.catalogs))
        else:
            payload[name] = kind.dump(new)
    return payload, theirs


def _conflict(form, name: str, now: str) -> None:
    form.add_error(name, _("Changed by someone else meanwhile (now: %(value)s). Save again to "
                           "overwrite it with yours.", value=now))
    form.conflicts.append(name)


def _refresh(form, names: list[str]) -> None:
    for name in names:
        spec = form.layout.specs[name]
        form[name].data = spec.value_kind.to_form(spec.value_kind.load(form.record.get(name)))
        form[name].raw_data = None
    form.base_state.data = json.dumps(snapshot(form.layout), separators=(",", ":"))


def _add_pairs(form, payload: dict) -> None:
    for first, second in PAIRS:
        for sent, partner in ((first, second), (second, first)):
            if sent in payload and partner not in payload and partner in form.layout.editable:
                spec = form.layout.specs[partner]
                payload[partner] = spec.value_kind.dump(form.values.get(partner))


def _add_table(form, payload: dict) -> None:
    table = form.layout.table
    if table is None or not table.editable:
        return
    before, after = base_rows(form, table), form.rows.get(table.name) or []
    if rows_changed(table, before, after):
        payload["assignments"] = dump_rows(table, after)


def create_payload(form) -> dict:
    """Every filled field, the assignments and (when present) the line items."""
    payload = {}
    for name, spec in form.layout.specs.items():
        value = spec.value_kind.dump(form.values.get(name))
        if value not in (None, "", []):
            payload[name] = value
    for table in (form.layout.table, form.layout.items):
        if table is not None:
            payload[table.name] = dump_rows(table, form.rows.get(table.name) or [])
    return payload
