"""Table views for templates and the no-JavaScript add/remove row buttons."""
from __future__ import annotations

from flask import request

from app.forms.kinds import ref_id
from app.forms.tables import Table

OP_FIELD = "table_op"


def table_rows(form, name: str) -> list:
    """RowViews of a table: entries matched to the record's rows by id (or position)."""
    from app.forms.base import RowView

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
