"""Upstream 400s onto the form: field messages on their inputs, row messages on their cells,
the rest above the form. Nothing the user typed is lost: the form is re-rendered as submitted.
"""
from __future__ import annotations

from flask_babel import gettext
from flask_babel import gettext as translate

GENERIC = "The accounting service did not accept the data sent."


def _translated(message: str) -> str:
    # Upstream messages that are also Bookdesk msgids (DRF's standard texts) get translated;
    # any other text is shown as the upstream wrote it.
    return translate(message)


def apply_upstream(form, error) -> None:
    """Distribute an app.upstream.ValidationError over the form."""
    placed = False
    for message in error.non_field_errors:
        form.form_errors.append(_translated(message))
        placed = True
    for key, messages in error.field_errors.items():
        _place(form, key, [_translated(m) for m in messages])
        placed = True
    if not placed:
        form.form_errors.append(gettext(GENERIC))


def _place(form, key: str, messages: list[str]) -> None:
    head, _sep, rest = key.partition(".")
    table = form.table(head)
    if table is None:
        for message in messages:
            form.add_error(head, message)
        return
    index, _sep, column = rest.partition(".")
    if not index.isdigit():
        form.row_errors.setdefault(head, {}).setdefault(-1, []).extend(messages)
        form.form_errors.extend(messages)
        return
    _place_cell(form, table, int(index), column or "non_field_errors", messages)


def _place_cell(form, table, position: int, column: str, messages: list[str]) -> None:
    rows = form.rows.get(table.name) or []
    entry_index = rows[position].get("_entry", position) if position < len(rows) else position
    entries = form[table.name].entries if table.editable else []
    if column in table.editable and entry_index < len(entries):
        cell = entries[entry_index][column]
        cell.errors = [*cell.errors, *messages]
        return
    label = next((str(spec.label) for spec in table.columns if spec.name == column), None)
    texts = [f"{label}: {m}" if label else m for m in messages]
    form.row_errors.setdefault(table.name, {}).setdefault(entry_index, []).extend(texts)
    form.form_errors.extend(texts if not entries else [])
