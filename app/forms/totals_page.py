"""The page side of the totals (app/forms/totals.py): what a form with amounts keeps for the
live request, and what that request answers while the user types.

A VAT or gross cell is computed only while it is empty or still holds what was computed for
it (totals_auto); a typed one is checked and flagged, never replaced. A computed one is held
to what a typed one is (totals.computed_text). The answer also carries the table's total row
(totals.sum_texts). The answer goes back as
an HX-Trigger event (app/incomes/views.py `totals`) that static/js/forms.js applies.
"""
from __future__ import annotations

import json
import re
from typing import Any

from app.forms.registry import currency_code, ref_id, spec_for
from app.forms.totals import (
    AMOUNTS,
    EITHER,
    HEADER,
    PLAIN,
    STORNO,
    Rules,
    Sheet,
    cell_fields,
    computed_text,
    fill_sheet,
    rates_by_id,
    read_json,
    record_sign,
    sheet_problems,
    sum_texts,
)

ROW_INPUT = re.compile(r"assignments-(\d+)-(net_amount|vat_amount|gross_amount|vat|id)")


def page_inputs(form) -> dict[str, str]:
    """The hidden inputs the page keeps for the live request: the form's currency, sign and
    kind (totals_context), and the cells that follow from others as rendered (totals_auto):
    a VAT that is net x rate, a gross that is net + VAT, a header that is the sum of its rows
    go on following them when net changes; any other value stays as it is, and is checked."""
    record = form.record
    currency = currency_code(form.values.get("currency") or record.get("currency"),
                             form.layout.catalogs)
    sign = record_sign(record, bool(record.get("referred_invoice_number")), form.layout.new)
    context = {"currency": currency, "sign": sign, "new": form.layout.new}
    auto = _derived_cells(_rendered(form), form.layout.catalogs, Rules(currency, sign))
    return {"totals_context": _compact(context), "totals_auto": _compact(auto)}


def _rendered(form) -> dict[str, str]:
    """{input name: text} of the form's amount inputs and VAT cells as they are rendered."""
    return {field.name: "" if field.data is None else str(field.data)
            for field in cell_fields(form).values()}


def _derived_cells(data: dict, catalogs: dict, rules: Rules) -> dict[str, str]:
    sheet, inputs, _errors = _post_sheet(data, {"new": True})
    now = {_input_name(HEADER, k): v for k, v in sheet.header.items()}
    now.update({_input_name(key, k): v for key, row in sheet.rows.items() for k, v in row.items()})
    free = {_parse_name(name) for name, text in inputs.items() if text}
    expected = fill_sheet(sheet, rates_by_id(catalogs), rules, free)
    moved = {cell for cell, value in expected.items() if now.get(_input_name(*cell)) != value}
    # A cell computed from one that would move is not derived from what the page shows.
    follows = {cell for cell in expected if cell not in moved and not (
        cell[0] is HEADER and any(key is not HEADER for key, _name in moved)) and not (
        cell[1] == "gross_amount" and (cell[0], "vat_amount") in moved)}
    return {_input_name(*cell): inputs[_input_name(*cell)] for cell in follows}


def _compact(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


def live(data, catalogs: dict) -> dict:
    """What the page shows after a keystroke: computed cells (with the text each replaces, so a
    cell typed in since the request is left alone), messages, the computed values.

    data: the posted form (MultiDict). A VAT or gross cell is computed only while it is empty
    or still holds the value computed last time (`totals_auto`); a typed one is checked.
    """
    context, auto = read_json(data.get("totals_context")), read_json(data.get("totals_auto"))
    rules = _live_rules(data, context, catalogs)
    sheet, inputs, errors = _post_sheet(data, context)
    free = {_parse_name(name) for name, text in inputs.items()
            if not text or auto.get(name) == text}
    shown = _computed(fill_sheet(sheet, rates_by_id(catalogs), rules, free), errors)
    for (key, name), message in sheet_problems(sheet, rates_by_id(catalogs), rules).items():
        errors.setdefault(_input_name(key, name), message)
    kept = {name: text for name, text in auto.items() if inputs.get(name) == text}
    return {"values": shown, "auto": {**kept, **shown},
            "was": {name: inputs.get(name, "") for name in shown},
            "errors": {name: errors.get(name, "") for name in inputs},
            **sum_texts(sheet, rules)}


def _computed(cells: dict, errors: dict) -> dict[str, str]:
    """{input name: text} of the computed cells; a value a typed one could not be gets its
    message in errors (before the sheet's own, which it outranks)."""
    shown = {}
    for (key, name), value in cells.items():
        shown[_input_name(key, name)], problem = computed_text(name, value)
        if problem:
            errors[_input_name(key, name)] = problem
    return shown


def _live_rules(data, context: dict, catalogs: dict) -> Rules:
    currency = currency_code(data.get("currency"), catalogs) if data.get("currency") \
        else context.get("currency")
    if "referred_invoice_number" in data:
        sign = STORNO if data["referred_invoice_number"].strip() else PLAIN
    else:
        sign = context.get("sign") if context.get("sign") in (STORNO, PLAIN, EITHER) else PLAIN
    return Rules(currency, sign)


def _post_sheet(data, context: dict) -> tuple[Sheet, dict, dict]:
    """The sheet from posted inputs, the amount inputs' texts, and parse errors by input."""
    inputs, errors, header, rows = {}, {}, {}, {}
    for name in data:
        key, column = _parse_name(name)
        if column is None:
            continue
        try:
            value = ref_id(data[name]) if column == "id" else \
                spec_for(column).value_kind.parse(data[name])
        except ValueError as exc:
            value, errors[name] = None, str(exc)
        line = header if key is HEADER else rows.setdefault(key, {})
        line[column] = value
        if column in AMOUNTS:
            inputs[name] = data[name].strip()
    rows = {key: row for key, row in rows.items() if any(row.get(n) is not None for n in AMOUNTS)}
    state = read_json(data.get("base_state"))
    base_header = {name: _load(name, (state.get("fields") or {}).get(name)) for name in header}
    base = {row.get("id"): {k: _load(k, v) for k, v in row.items()}
            for row in state.get("rows") or [] if isinstance(row, dict) and row.get("id")}
    return Sheet(header, rows, base_header, base, bool(context.get("new"))), inputs, errors


def _parse_name(name: str) -> tuple[Any, str | None]:
    if name in AMOUNTS:
        return HEADER, name
    match = ROW_INPUT.fullmatch(name)
    return (int(match[1]), match[2]) if match else (None, None)


def _input_name(key: Any, name: str) -> str:
    return name if key is HEADER else f"assignments-{key}-{name}"


def _load(name: str, value: Any) -> Any:
    return value if name == "id" else spec_for(name).value_kind.load(value)
