"""Reading a submitted form: CSRF, parsing every input, the rules checked before sending.

A field missing from the submitted data counts as unchanged (a crafted or partial POST cannot
clear what it did not send); multi-selects and checkboxes carry an empty marker value so that
"nothing chosen" is told apart from "not sent".
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from app.forms.diff import base_rows, base_values
from app.forms.rules import apply_rules
from app.forms.tables import parse_rows

FALSE_WORDS = ("", "false", "0", "n", "no", "off")


def check_form(form) -> bool:
    """Fill form.values and form.rows; put messages on fields; True when all is well."""
    if not form.validate() and "csrf_token" in form.errors:
        form.form_errors.append(_("This form has expired. Reload the page and try again."))
        return False
    ok = _parse_fields(form)
    for table in (form.layout.table, form.layout.items):
        if table is not None:
            ok = _parse_table(form, table) and ok
    return apply_rules(form) and ok and not form.form_errors


def raw_value(spec, field) -> Any:
    """The submitted value in the shape the kind parses; None when the field was not sent."""
    raw = list(field.raw_data or [])
    if not raw:
        return None
    if spec.kind == "refs":
        return [value for value in raw if value != ""]
    if spec.kind == "bool":
        return any(str(value).lower() not in FALSE_WORDS for value in raw)
    return raw[0]


def _parse_fields(form) -> bool:
    base = base_values(form)
    results = [_parse_field(form, name, spec, base) for name, spec in form.layout.specs.items()]
    return all(results)


def _parse_field(form, name: str, spec, base: dict) -> bool:
    """One field into form.values: read-only from the record, unsent as rendered."""
    kind = spec.value_kind
    if name not in form.layout.editable:
        form.values[name] = kind.load(form.record.get(name))
        return True
    raw = raw_value(spec, form[name])
    if raw is None and not form.layout.new:
        form.values[name] = base.get(name)
        return True
    stored = kind.load(form.record.get(name))
    if kind.keeps_unchanged and stored is not None and kind.same(raw, stored):
        form.values[name] = stored
        return True
    try:
        form.values[name] = spec.parse(raw)
    except ValueError as exc:
        form[name].errors = [*form[name].errors, str(exc)]
        return False
    if spec.required and form.values[name] in (None, []):
        form[name].errors = [*form[name].errors, _("This field is required.")]
        return False
    return True


def _parse_table(form, table) -> bool:
    if not table.editable or not _table_sent(form, table.name):
        form.rows[table.name] = base_rows(form, table)
        return True
    rows, ok = parse_rows(table, form[table.name].entries)
    form.rows[table.name] = rows
    if len(rows) < table.min_rows:
        form.row_errors.setdefault(table.name, {})[-1] = [_("Add at least one row.")]
        form.form_errors.append(_("Add at least one row to the table “%(table)s”.",
                                  table=table.label or table.name))
        ok = False
    return ok


def _table_sent(form, name: str) -> bool:
    from flask import request

    prefix = f"{name}-"
    return any(key.startswith(prefix) for key in request.form)

