"""A submitted form: parsing, rules before sending, the body it sends, upstream errors on inputs.

Reading a submitted form: CSRF, parsing every input, the rules checked before sending.

A field missing from the submitted data counts as unchanged (a crafted or partial POST cannot
clear what it did not send); multi-selects and checkboxes carry an empty marker value so that
"nothing chosen" is told apart from "not sent".

Rules checked before anything is sent (the API checks them too; this keeps the round trip
and shows the message on the right field): pairs together, start not after end, exchange rate,
totals that add up (app/forms/totals.py).

The body sent is what the user changed, plus what rules tie to it, and nothing else, taken
against the snapshot the form was rendered with (app/forms/tables.py); where the user and
someone else both changed a field, the change is held back as a conflict and the field says so.

Upstream 400s onto the form: field messages on their inputs, row messages on their cells,
the rest above the form. Nothing the user typed is lost: the form is re-rendered as submitted.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from flask import request
from flask_babel import gettext as _

from app.forms.display import display_text, readonly_reason, record_reason
from app.forms.registry import PAIRS, ref_id, spec_for
from app.forms.tables import (
    base_rows,
    base_values,
    dump_rows,
    parse_rows,
    rendered_fields,
    rendered_inputs,
    rows_changed,
    snapshot,
)
from app.forms.totals import check_form_totals
from app.upstream.errors import MACHINE_KEYS, NOT_ACCEPTED, upstream_text

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
    return shaped(spec, list(field.raw_data or []))


def shaped(spec, raw: list) -> Any:
    """Submitted values (every value of one name) in the shape the kind parses; None when
    none was sent."""
    if not raw:
        return None
    if spec.kind == "refs":
        return [value for value in raw if value != ""]
    if spec.kind == "bool":
        return any(str(value).lower() not in FALSE_WORDS for value in raw)
    return raw[0]


def _parse_fields(form) -> bool:
    base, shown = base_values(form), rendered_fields(form)
    results = [_parse_field(form, name, spec, base, shown)
               for name, spec in form.layout.specs.items()]
    return all(results)


def _parse_field(form, name: str, spec, base: dict, shown: dict) -> bool:
    """One field into form.values: read-only from the record, unsent as rendered."""
    kind = spec.value_kind
    if name not in form.layout.editable:
        form.values[name] = kind.load(form.record.get(name))
        return not _locked_meanwhile(form, name, spec, shown)
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


def _locked_meanwhile(form, name: str, spec, shown: dict) -> bool:
    """Whether the user changed a field the form showed as an input (shown: those, as
    rendered) that has been locked since (booked, checked...): its value cannot be saved, so
    the form says so, never dropping it quietly."""
    raw = raw_value(spec, form[name]) if name in shown and name in form else None
    if raw is None or _same_cell(spec, raw, shown[name]):
        return False
    form.add_error(name, _locked_text(form, name, raw))
    return True


def _locked_text(form, name: str, raw) -> str:
    """Why a value typed into an input locked meanwhile was not saved, with the value."""
    reason = readonly_reason(form.record, name, form.layout.company)
    return _("Locked since you opened the form (%(reason)s), so “%(value)s” was not saved.",
             reason=reason or _("not editable now"),
             value=", ".join(raw) if isinstance(raw, list) else raw)


def _parse_table(form, table) -> bool:
    sent = _table_sent(form, table.name)
    if sent and _locked_cells(form, table):
        form.rows[table.name] = base_rows(form, table)
        return False
    if not table.editable or not sent:
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


def _locked_cells(form, table) -> bool:
    """Whether the user changed a cell of the table, or its rows, locked since the form was
    rendered (a ledger number frozen by a check, rows fixed by processing); each change is
    refused above the form with its value, as _locked_meanwhile does for fields, never
    dropped."""
    rendered, (inputs, was_fixed) = base_rows(form, table), rendered_inputs(form, table)
    rows_refused = _rows_locked(form, table, rendered, was_fixed)
    found = rows_refused
    for index, number, column, raw in _sent_cells(table, inputs):
        original = _rendered_row(table, rendered, index, was_fixed)
        if original is None and (was_fixed or rows_refused):
            continue  # a row the form never offered (crafted), or one refused as a row
        if column in table.editable and (original is not None or not table.fixed):
            continue
        spec = spec_for(column)
        if not _same_cell(spec, shaped(spec, raw), (original or {}).get(column)):
            _refuse_cell(form, table, number, column, shaped(spec, raw))
            found = True
    return found


def _rows_locked(form, table, rendered: list[dict], was_fixed: bool) -> bool:
    """Whether rows were added or removed in a table whose rows were fixed meanwhile."""
    if was_fixed or (table.fixed is False and table.editable):
        return False
    sent = [_row_id(table, index) for index in _sent_rows(table)]
    if sent == [row.get("id") for row in rendered]:
        return False
    form.form_errors.append(f"{table.label or table.name}: " + _(
        "Rows can no longer be added or removed (%(reason)s), so the rows you added or "
        "removed were not saved.", reason=record_reason(form.record)))
    return True


def _refuse_cell(form, table, number: int, column: str, raw) -> None:
    where = f"{table.label or table.name}, {_('row %(number)s', number=number)}"
    form.form_errors.append(f"{where}, {spec_for(column).label}: "
                            + _locked_text(form, column, raw))


def _sent_rows(table) -> list[int]:
    """The entry indexes of the submitted rows, in the order they came."""
    prefix, order = f"{table.name}-", []
    for key in request.form:
        index = key.removeprefix(prefix).partition("-")[0]
        if key.startswith(prefix) and index.isdigit() and int(index) not in order:
            order.append(int(index))
    return order


def _sent_cells(table, inputs: set[str]):
    """(entry index, row number as shown, column, values) of every submitted cell of a
    column shown as an input."""
    for number, index in enumerate(_sent_rows(table), start=1):
        for column in sorted(inputs):
            values = request.form.getlist(f"{table.name}-{index}-{column}")
            if values:
                yield index, number, column, values


def _row_id(table, index: int) -> int | None:
    try:
        return ref_id(request.form.get(f"{table.name}-{index}-id", ""))
    except ValueError:
        return None


def _rendered_row(table, rendered: list[dict], index: int, fixed: bool) -> dict | None:
    """The row as the form showed it: by position in a fixed table, else by its id."""
    if fixed:
        return rendered[index] if index < len(rendered) else None
    row_id = _row_id(table, index)
    return next((row for row in rendered if row_id is not None and row.get("id") == row_id), None)


def _same_cell(spec, raw, shown) -> bool:
    try:
        typed = spec.parse(raw)
    except ValueError:
        return False
    return spec.value_kind.same(typed, shown)


def _table_sent(form, name: str) -> bool:

    prefix = f"{name}-"
    return any(key.startswith(prefix) for key in request.form)




def apply_rules(form) -> bool:
    """Run every rule; True when none complained."""
    results = [rule(form) for rule in (pairs_together, period_order, exchange_rate,
                                         check_form_totals)]
    return all(results)


def pairs_together(form) -> bool:
    """vat_period_type + start, accounting period start + end: both filled or both empty."""
    ok = True
    for first, second in PAIRS:
        if not (form.is_editable(first) and form.is_editable(second)):
            continue
        filled = {name: form.values.get(name) is not None for name in (first, second)}
        if filled[first] != filled[second]:
            empty, other = (first, second) if not filled[first] else (second, first)
            form.add_error(empty, _("“%(other)s” is filled in: fill this in as well, or leave "
                                    "both empty.", other=form.layout.specs[other].label))
            ok = False
    return ok


def period_order(form) -> bool:
    """The accounting period may not start after it ends."""
    start = form.values.get("accounting_period_start")
    end = form.values.get("accounting_period_end")
    if start and end and start > end and form.is_editable("accounting_period_start"):
        form.add_error("accounting_period_start",
                       _("The start may not be after the end of the period."))
        return False
    return True


def default_currency_id(company: dict | None, catalogs: dict) -> int | None:
    """The id of the company's default currency, from the currency catalogue."""
    code = (company or {}).get("default_currency_name")
    for item in catalogs.get("currencies") or []:
        if code and item.get("code") == code:
            return item.get("id")
    return None


def exchange_rate(form) -> bool:
    """A currency other than the company's needs an actual exchange rate (not empty, not 1)."""
    if "currency" not in form.layout.specs or not _rate_in_play(form):
        return True
    default = default_currency_id(form.layout.company, form.layout.catalogs)
    currency, rate = form.values.get("currency"), form.values.get("exchange_rate")
    if default is None or currency is None or currency == default:
        return True
    if rate is not None and rate != Decimal(1):
        return True
    target = "exchange_rate" if form.is_editable("exchange_rate") else "currency"
    form.add_error(target, _("Enter the actual exchange rate: the currency is not %(code)s, "
                             "the company's own.", code=form.layout.company.get(
                                 "default_currency_name")))
    return False


def _rate_in_play(form) -> bool:
    if form.layout.new:
        return True
    base = base_values(form)
    return any(form.is_editable(name) and form.values.get(name) != base.get(name)
               for name in ("currency", "exchange_rate"))


def apply_upstream(form, error) -> None:
    """Distribute an app.upstream.ValidationError over the form."""
    placed = False
    for message in error.non_field_errors:
        form.form_errors.append(upstream_text(message))
        placed = True
    for key, messages in error.field_errors.items():
        if key in MACHINE_KEYS:
            continue
        _place(form, key, [upstream_text(m) for m in messages])
        placed = True
    if not placed:
        form.form_errors.append(str(NOT_ACCEPTED))


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


def changes(form) -> dict:
    """The PATCH body, or {} with form.conflicts set when someone else changed the same field.

    After a conflict the form shows the other party's values where the user had not
    touched a field, and a fresh snapshot, so saving again applies exactly what is shown.
    """
    payload, theirs = _classify(form, base_values(form))
    _stale_partners(form, payload, theirs)
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


def _partners(form, payload: dict):
    """(sent, partner) for each pair half the user changed whose partner goes with it."""
    for first, second in PAIRS:
        for sent, partner in ((first, second), (second, first)):
            if sent in payload and partner not in payload and partner in form.layout.editable:
                yield sent, partner


def _stale_partners(form, payload: dict, theirs: list[str]) -> None:
    """A partner someone else changed meanwhile would go back with the value the form was
    opened with: held back as a conflict, their value shown (it is refreshed with theirs)."""
    for sent, partner in _partners(form, payload):
        if partner in theirs:
            form.add_error(partner, _(
                "Changed by someone else meanwhile; their value is shown now. It is saved "
                "together with “%(field)s”: check both, then save again.",
                field=form.layout.specs[sent].label))
            form.conflicts.append(partner)


def _add_pairs(form, payload: dict) -> None:
    for _sent, partner in list(_partners(form, payload)):
        payload[partner] = form.layout.specs[partner].value_kind.dump(form.values.get(partner))


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
