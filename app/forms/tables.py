"""Row tables of a form, their template views, and the values the form was rendered with.

Editable row tables (assignments, line items): columns from editable_fields, rows by id.

A table whose amount columns are read-only has fixed rows (the API then only lets some
columns change); otherwise rows can be added and removed. Read-only cells always come from the
record, never from the submitted form.

Table views for templates and the no-JavaScript add/remove row buttons.

The form carries a snapshot of the values it was rendered with (`base_state`): the fields and
the table rows. What a submission changed is taken against that snapshot (app/forms/check.py),
so a field someone else changed meanwhile is not overwritten by the stale value still in the
form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, Form, FormField, HiddenField

from app.forms.display import (
    EMPTY_CHOICE,
    catalog_choices,
    display_text,
    make_field,
    ref_label,
    truthy,
    with_current,
)
from app.forms.registry import FieldSpec, ref_id, spec_for

TEMPLATE_INDEX = "__index__"
REQUIRED_MSG = _l("This field is required.")
ROW_LOCKING = ("net_amount", "gross_amount")


@dataclass
class Table:
    """What a table shows: columns, which are editable, the record's rows; `live` holds extra
    input attributes per column (the live totals request)."""

    name: str
    columns: list[FieldSpec]
    editable: set[str]
    rows: list[dict]
    required: tuple[str, ...] = ()
    fixed: bool = False
    min_rows: int = 0
    catalogs: dict = field(default_factory=dict)
    record: dict = field(default_factory=dict)
    label: str = ""
    live: dict = field(default_factory=dict)

    def row_by_id(self, row_id: Any) -> dict | None:
        """The record's row with this id."""
        return next((r for r in self.rows if row_id is not None and r.get("id") == row_id), None)

    def display(self, spec: FieldSpec, row: dict | None) -> str:
        """Read-only text of one cell."""
        return display_text(spec, (row or {}).get(spec.name), self.record, self.catalogs)


def make_table(name: str, names: tuple, rows: list[dict], editable: set[str],
               catalogs: dict, record: dict, **options) -> Table:
    """Choose the columns: editable ones plus read-only ones that hold a value somewhere."""
    specs = [spec_for(n) for n in names]
    columns = [s for s in specs
               if s.name in editable or any(truthy(row.get(s.name)) for row in rows)]
    fixed = options.pop("fixed", None)
    if fixed is None:
        present = {spec.name for spec in specs}
        fixed = not all(col in editable for col in ROW_LOCKING if col in present)
    return Table(name, columns, editable, rows, fixed=fixed, catalogs=catalogs, record=record,
                 label=table_label(name, specs), **options)


def table_label(name: str, specs: list[FieldSpec]) -> str:
    """The table's heading: line items, or cost or revenue categorisation by its type column."""
    if name == "items":
        return _l("Line items")
    if name == "assignments":
        costs = any(spec.name == "expense_type" for spec in specs)
        return _l("Cost categorisation") if costs else _l("Revenue categorisation")
    return name


def row_form_class(table: Table) -> type[Form]:
    """The WTForms row form: a hidden id plus one field per editable column."""
    attrs: dict[str, Any] = {"id": HiddenField()}
    for spec in table.columns:
        if spec.name in table.editable:
            choices = catalog_choices(spec, table.catalogs)
            for row in table.rows:
                choices = with_current(choices, _choice_value(spec, row.get(spec.name)),
                                       ref_label(row.get(spec.name)))
            if spec.kind == "ref":
                choices = [EMPTY_CHOICE, *choices]
            attrs[spec.name] = make_field(spec, choices, render_kw={
                "aria-label": spec.label, **table.live.get(spec.name, {})})
    return type(f"{table.name.title()}Row", (Form,), attrs)


def _choice_value(spec: FieldSpec, raw: Any) -> Any:
    if spec.kind == "refs":
        return [ref_id(item) for item in raw or []]
    return ref_id(raw) if spec.kind == "ref" else None


def table_field(table: Table) -> FieldList:
    """The FieldList holding the table's rows."""
    return FieldList(FormField(row_form_class(table)), min_entries=table.min_rows)


def initial_rows(table: Table) -> list[dict]:
    """Form data for the record's rows."""
    return [{"id": "" if row.get("id") is None else str(row["id"]),
             **{spec.name: spec.value_kind.to_form(spec.value_kind.load(row.get(spec.name)))
                for spec in table.columns if spec.name in table.editable}}
            for row in table.rows]


def load_rows(table: Table) -> list[dict]:
    """The record's rows as Python values (id plus every column)."""
    return [{"id": row.get("id"),
             **{spec.name: spec.value_kind.load(row.get(spec.name)) for spec in table.columns}}
            for row in table.rows]


def template_row(table: Table):
    """A blank bound row with the placeholder index, for the add-row <template>."""
    form = row_form_class(table)(prefix=f"{table.name}-{TEMPLATE_INDEX}-")
    return form


def parse_rows(table: Table, entries) -> tuple[list[dict], bool]:
    """Rows from the submitted entries (read-only cells from the record); errors on cells."""
    if table.fixed:
        pairs = [(entry, row) for entry, row in zip(entries, table.rows, strict=False)]
    else:
        pairs = [(entry, table.row_by_id(_entry_id(entry))) for entry in entries]
    rows, ok = [], True
    for index, (entry, original) in enumerate(pairs):
        if original is None and _blank(table, entry):
            continue
        row, row_ok = _parse_row(table, entry, original)
        row["_entry"] = index
        rows.append(row)
        ok = ok and row_ok
    return rows, ok


def _entry_id(entry) -> int | None:
    try:
        return ref_id(entry["id"].data)
    except ValueError:
        return None


def _blank(table: Table, entry) -> bool:
    def filled(data) -> bool:
        return any(truthy(v) for v in data) if isinstance(data, list) else truthy(data)

    return not any(filled(entry[spec.name].data) for spec in table.columns
                   if spec.name in table.editable and spec.kind != "bool")


def _parse_row(table: Table, entry, original: dict | None) -> tuple[dict, bool]:
    row: dict[str, Any] = {"id": (original or {}).get("id")}
    ok = True
    for spec in table.columns:
        if spec.name not in table.editable:
            row[spec.name] = spec.value_kind.load((original or {}).get(spec.name))
            continue
        cell = entry[spec.name]
        try:
            row[spec.name] = spec.parse(cell.data)
        except ValueError as exc:
            cell.errors = [*cell.errors, str(exc)]
            ok = False
            continue
        if _missing(table, spec, row, original):
            cell.errors = [*cell.errors, str(REQUIRED_MSG)]
            ok = False
    return row, ok


def _missing(table: Table, spec, row: dict, original: dict | None) -> bool:
    """A required cell left empty. A stored row the API already holds without the value is
    not refused for it: the user may edit the rest of the record (the API says if it minds)."""
    if spec.name not in table.required or row[spec.name] not in (None, []):
        return False
    return original is None or spec.value_kind.load(original.get(spec.name)) not in (None, [])


def dump_rows(table: Table, rows: list[dict]) -> list[dict]:
    """The payload list: the id of existing rows plus the editable cells (empty amounts left
    out, so the API works them out)."""
    out = []
    for row in rows:
        item = {} if row.get("id") is None else {"id": row["id"]}
        for spec in table.columns:
            if spec.name in table.editable:
                value = spec.value_kind.dump(row.get(spec.name))
                if value is not None or spec.kind not in ("amount", "percent", "rate"):
                    item[spec.name] = value
        out.append(item)
    return out


def rows_changed(table: Table, before: list[dict], after: list[dict]) -> bool:
    """True when rows were added, removed, reordered or any cell differs."""
    if [r.get("id") for r in before] != [r.get("id") for r in after]:
        return True
    return any(not spec.value_kind.same(old.get(spec.name), new.get(spec.name))
               for old, new in zip(before, after, strict=True) for spec in table.columns)




OP_FIELD = "table_op"


@dataclass
class RowView:
    """One table row: its form entry (None when read-only), cells and row-level errors."""

    entry: Any
    cells: list[tuple[FieldSpec, Any, str]]
    errors: list[str] = field(default_factory=list)


def table_rows(form, name: str) -> list:
    """RowViews of a table: entries matched to the record's rows by id (or position)."""
    table = form.table(name)
    if table is None:
        return []
    errors = form.row_errors.get(name, {})
    if not table.editable:
        return [RowView(None, [(spec, None, table.display(spec, row)) for spec in table.columns],
                        errors.get(index, [])) for index, row in enumerate(table.rows)]
    views = []
    for index, entry in enumerate(form[name].entries):
        original = _original(table, entry, index)
        cells = [(spec, entry[spec.name] if spec.name in table.editable else None,
                  table.display(spec, original)) for spec in table.columns]
        views.append(RowView(entry, cells, errors.get(index, [])))
    return views


def _original(table: Table, entry, index: int) -> dict | None:
    if table.fixed:
        return table.rows[index] if index < len(table.rows) else None
    try:
        return table.row_by_id(ref_id(entry["id"].data))
    except ValueError:
        return None


def table_op(form) -> bool:
    """`add:<table>` appends a blank row, `remove:<table>:<index>` drops one; re-render."""
    op = request.form.get(OP_FIELD, "") if request.method == "POST" else ""
    action, _sep, rest = op.partition(":")
    name, _sep, index = rest.partition(":")
    table = form.table(name)
    if action not in ("add", "remove") or table is None or table.fixed or not table.editable:
        return False
    rows = form[name]
    if action == "add":
        rows.append_entry()
    elif index in map(str, range(len(rows.entries))):
        rows.entries.pop(int(index))
    return True


def snapshot(layout) -> dict:
    """The editable values as rendered (JSON-ready): fields and table rows."""
    fields = {name: spec.value_kind.dump(spec.value_kind.load(layout.record.get(name)))
              for name, spec in layout.specs.items() if name in layout.editable}
    table = layout.table
    rows, inputs = None, []
    if table is not None and table.editable:
        rows = [{k: _dump_cell(table, k, v) for k, v in row.items()} for row in load_rows(table)]
        inputs = sorted(table.editable)
    return {"fields": fields, "rows": rows, "inputs": inputs, "fixed": bool(table and table.fixed)}


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


def rendered_fields(form) -> dict:
    """The fields the form showed as inputs when rendered, with their values then."""
    stored = _state(form).get("fields") or {}
    return {name: form.layout.specs[name].value_kind.load(value)
            for name, value in stored.items() if name in form.layout.specs}


def rendered_inputs(form, table) -> tuple[set[str], bool]:
    """The table's columns the form showed as inputs when rendered, and whether its rows
    were fixed then."""
    state = _state(form) if table.name == "assignments" else {}
    return set(state.get("inputs") or ()), bool(state.get("fixed"))


def base_rows(form, table) -> list[dict]:
    """The rendered rows of a table, as Python values (the record's when not stored)."""
    stored = _state(form).get("rows") if table.name == "assignments" else None
    if not isinstance(stored, list):
        return load_rows(table)
    specs = {spec.name: spec for spec in table.columns}
    return [{k: (v if k == "id" else specs[k].value_kind.load(v)) for k, v in row.items()
             if k == "id" or k in specs} for row in stored if isinstance(row, dict)]
