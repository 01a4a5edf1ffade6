"""Totals that add up: VAT and gross worked out from net and the VAT rate, and the checks every
form with amounts passes before anything is sent.

One sheet (the header's net / VAT / gross and the categorisation rows with their VAT category)
is read the same way from a submitted form (app.forms.rules runs `check_form_totals`) and from
the live request the page sends while the user types (app/incomes/views_totals.py), so the
page can never show a total the submit would refuse, nor the reverse.

Rules (spec 2.2, 3; DESIGN.md "Hungarian and English"):
- amounts are in the currency's smallest unit (HUF whole, others as CLDR says);
- per line, VAT may differ from net x rate by at most one smallest unit (rounding), and
  net + VAT must equal gross exactly; the header must equal the sum of the rows;
- a storno carries no positive amount; any other new document no negative one; an existing
  record that already holds negative amounts (a correction synced from an invoicing program)
  keeps one sign per line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask_babel import gettext as _

from app.forms.kinds import ref_id
from app.numbers import WHOLE_CURRENCIES, amount_places, format_amount, format_number

AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
RATE = "vat"
HEADER = None  # the key of the header line among the rows' keys
ROW_INPUT = re.compile(r"assignments-(\d+)-(net_amount|vat_amount|gross_amount|vat|id)")
STORNO, PLAIN, EITHER = -1, 1, 0


@dataclass(frozen=True)
class Rules:
    """What a sheet is held to: its currency and the sign its amounts must have."""

    currency: str | None
    sign: int = PLAIN

    @property
    def unit(self) -> Decimal:
        """The currency's smallest unit (1 for HUF, 0.01 for EUR)."""
        return Decimal(1).scaleb(-vat_places(self.currency))


@dataclass
class Sheet:
    """The amounts of one form: header line, rows (by key), and the values it was shown with.

    A line is {net_amount, vat_amount, gross_amount, vat (category id), id}; values are
    Decimal / int / None. `base` maps a row id to the row as rendered; `new` checks every line.
    """

    header: dict
    rows: dict[Any, dict]
    base_header: dict = field(default_factory=dict)
    base: dict[Any, dict] = field(default_factory=dict)
    new: bool = True


def vat_places(currency: str | None) -> int:
    """Decimals VAT is rounded to: whole forints (as Hungarian invoices state VAT), else the
    currency's own (app.numbers.amount_places)."""
    return 0 if str(currency or "").upper() in WHOLE_CURRENCIES else amount_places(currency)


def money(value: Decimal, currency: str | None) -> str:
    """An amount for a message: the currency's display, or two decimals where it has cents
    the display would round away (forints typed with fillér)."""
    shown = format_amount(value, currency)
    if value == value.quantize(Decimal(1).scaleb(-vat_places(currency))):
        return shown
    return f"{format_number(value, places=amount_places())} {currency or ''}".strip()


def vat_of(net: Decimal, rate: Decimal, unit: Decimal) -> Decimal:
    """VAT on `net` at `rate` percent, rounded half up to the currency's unit."""
    return (net * rate / 100).quantize(unit, rounding=ROUND_HALF_UP)


def filled(line: dict, rate: Decimal | None, rules: Rules, free: set[str]) -> dict:
    """The VAT and gross a line gets from its net and rate, for the cells in `free` only."""
    net, vat = line.get("net_amount"), line.get("vat_amount")
    if net is None:
        return {}
    out = {}
    if "vat_amount" in free and rate is not None:
        vat = out["vat_amount"] = vat_of(net, rate, rules.unit)
    if "gross_amount" in free and vat is not None:
        out["gross_amount"] = net + vat
    return out


def line_problems(line: dict, rate: Decimal | None, rules: Rules) -> dict[str, str]:
    """{field: message} for a line whose signs, VAT or gross do not add up."""
    found = _sign_problems(line, rules)
    net, vat, gross = (line.get(name) for name in AMOUNTS)
    implied = vat if vat is not None else (gross - net if None not in (net, gross) else None)
    target = "vat_amount" if vat is not None else "gross_amount"
    if rate is not None and None not in (net, implied) and target not in found \
            and abs(implied - net * rate / 100) > rules.unit:
        found[target] = _("At %(rate)s%% the VAT on %(net)s is %(vat)s, not %(typed)s.",
                          rate=_percent(rate), net=money(net, rules.currency),
                          vat=money(vat_of(net, rate, rules.unit), rules.currency),
                          typed=money(implied, rules.currency))
    if None not in (net, vat, gross) and net + vat != gross and "gross_amount" not in found:
        found["gross_amount"] = _("Net + VAT is %(sum)s, not %(gross)s.",
                                  sum=money(net + vat, rules.currency),
                                  gross=money(gross, rules.currency))
    return found


def sum_problems(header: dict, rows: list[dict], rules: Rules) -> dict[str, str]:
    """{header field: message} where the header differs from the sum of the rows."""
    found = {}
    for name in AMOUNTS:
        values = [row.get(name) for row in rows]
        if header.get(name) is None or not values or None in values:
            continue
        total = sum(values, Decimal(0))
        if total != header[name]:
            found[name] = _("The rows below add up to %(sum)s.", sum=money(total, rules.currency))
    return found


def sheet_problems(sheet: Sheet, rates: dict, rules: Rules) -> dict[tuple, str]:
    """{(row key or HEADER, field): message} for every changed line that does not add up."""
    found: dict[tuple, str] = {}
    header_changed = sheet.new or _differs(sheet.header, sheet.base_header)
    if header_changed:
        found.update({(HEADER, k): m for k, m in line_problems(sheet.header, None, rules).items()})
    changed = [key for key, row in sheet.rows.items() if _row_changed(sheet, row)]
    for key in changed:
        row = sheet.rows[key]
        problems = line_problems(row, rates.get(row.get(RATE)), rules)
        found.update({(key, name): message for name, message in problems.items()})
    if header_changed or changed:
        sums = sum_problems(sheet.header, list(sheet.rows.values()), rules)
        found.update({(HEADER, k): m for k, m in sums.items() if (HEADER, k) not in found})
    return found


def _row_changed(sheet: Sheet, row: dict) -> bool:
    before = sheet.base.get(row.get("id")) if row.get("id") is not None else None
    return sheet.new or before is None or _differs(row, before, (*AMOUNTS, RATE))


def _differs(now: dict, before: dict, names: tuple = AMOUNTS) -> bool:
    return any(now.get(name) != before.get(name) for name in names if name in now)


def _sign_problems(line: dict, rules: Rules) -> dict[str, str]:
    values = {name: line[name] for name in AMOUNTS if line.get(name)}
    if rules.sign == STORNO:
        return {name: _("A storno reverses the original: its amounts are negative or zero.")
                for name, value in values.items() if value > 0}
    if rules.sign == PLAIN:
        return {name: _("Negative amounts belong on a storno only. Enter the amount without "
                        "a minus sign, or create a storno of the original document.")
                for name, value in values.items() if value < 0}
    first = next(iter(values.values()), None)
    return {name: _("Net, VAT and gross of one line have the same sign.")
            for name, value in values.items() if (value < 0) != (first < 0)}


def _percent(rate: Decimal) -> str:
    return format_number(rate.normalize())


def rates_by_id(catalogs: dict) -> dict[int, Decimal]:
    """{VAT category id: percent} from the VAT category catalogue."""
    return {item["id"]: Decimal(str(item["percent"]))
            for item in catalogs.get("vat_categories") or []
            if isinstance(item, dict) and item.get("percent") is not None}


def currency_code(value: Any, catalogs: dict) -> str | None:
    """The ISO code of a currency id (or {id, code} object) from the currency catalogue."""
    if isinstance(value, dict):
        return value.get("code") or currency_code(value.get("id"), catalogs)
    for item in catalogs.get("currencies") or []:
        if value is not None and str(item.get("id")) == str(value):
            return item.get("code")
    return None


def record_sign(record: dict, storno: bool, new: bool) -> int:
    """The sign a document's amounts must have: STORNO, PLAIN, or EITHER for a record that
    already holds negative amounts."""
    if storno or record.get("invoice_type") == 1:
        return STORNO
    stored = [record.get(name) for name in AMOUNTS] + [
        row.get(name) for row in record.get("assignments") or [] for name in AMOUNTS]
    negative = any(_negative(value) for value in stored)
    return EITHER if negative and not new else PLAIN


def _negative(value: Any) -> bool:
    try:
        return Decimal(str(value)) < 0
    except ArithmeticError:
        return False


# --- A submitted form (app.forms.rules) -------------------------------------------------------

def form_rules(form) -> Rules:
    """The rules of a built form: its currency and the sign its document type allows."""
    values, record = form.values, form.record
    currency = values.get("currency") if values.get("currency") is not None \
        else record.get("currency")
    storno = bool(values.get("referred_invoice_number"))
    return Rules(currency_code(currency, form.layout.catalogs),
                 record_sign(record, storno, form.layout.new))


def form_sheet(form) -> Sheet:
    """The sheet of a checked form (form.values and form.rows filled)."""
    from app.forms.diff import base_rows, base_values
    from app.forms.tables import load_rows

    header = {name: form.values.get(name) for name in AMOUNTS if form.is_editable(name)}
    base = base_values(form)
    table, rows, before = form.layout.table, {}, []
    if table is not None:
        current = form.rows.get(table.name) if table.editable else None
        before = base_rows(form, table) if table.editable else load_rows(table)
        for index, row in enumerate(current if current is not None else before):
            rows[row.get("_entry", index)] = row
    return Sheet(header, rows, {name: base.get(name) for name in header},
                 {row.get("id"): row for row in before if row.get("id") is not None},
                 form.layout.new)


def check_form_totals(form) -> bool:
    """Put a message on every amount that does not add up; True when none."""
    if not any(name in form.layout.specs for name in AMOUNTS) and form.layout.table is None:
        return True
    sheet, rates, rules = form_sheet(form), rates_by_id(form.layout.catalogs), form_rules(form)
    _follow_page(form, sheet, rates, rules)
    found = sheet_problems(sheet, rates, rules)
    for (key, name), message in found.items():
        if key is HEADER:
            form.add_error(name, message)
        else:
            _row_error(form, key, name, message)
    return not found


def _follow_page(form, sheet: Sheet, rates: dict, rules: Rules) -> None:
    """Cells the page computed (totals_auto) and the user left alone follow their sources, as
    they would have had the page's last answer come before the submit."""
    from flask import request

    auto = _json(request.form.get("totals_auto"))
    free = {cell for cell, field in _cell_fields(form).items()
            if auto.get(field.name) and str(field.data or "").strip() == auto[field.name]}
    for (key, name), value in _fill(sheet, rates, rules, free).items():
        if key is HEADER:
            form.values[name] = value


def _row_error(form, key: int, name: str, message: str) -> None:
    table = form.layout.table
    if table.editable and name in table.editable and key < len(form[table.name].entries):
        cell = form[table.name].entries[key][name]
        cell.errors = [*cell.errors, message]
        return
    label = next((spec.label for spec in table.columns if spec.name == name), name)
    form.row_errors.setdefault(table.name, {}).setdefault(key, []).append(f"{label}: {message}")


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
            for field in _cell_fields(form).values()}


def _cell_fields(form) -> dict[tuple, Any]:
    """{(row key or HEADER, column): input} of the amount inputs and VAT cells of a form."""
    cells = {(HEADER, name): form[name] for name in AMOUNTS
             if form.is_editable(name) and name in form._fields}
    table = form.layout.table
    if table is not None and table.editable and table.name in form._fields:
        cells.update({(key, column): entry[column]
                      for key, entry in enumerate(form[table.name].entries)
                      for column in (*AMOUNTS, RATE) if column in table.editable})
    return cells


def _derived_cells(data: dict, catalogs: dict, rules: Rules) -> dict[str, str]:
    sheet, inputs, _errors = _post_sheet(data, {"new": True})
    now = {_input_name(HEADER, k): v for k, v in sheet.header.items()}
    now.update({_input_name(key, k): v for key, row in sheet.rows.items() for k, v in row.items()})
    free = {_parse_name(name) for name, text in inputs.items() if text}
    expected = _fill(sheet, rates_by_id(catalogs), rules, free)
    moved = {cell for cell, value in expected.items() if now.get(_input_name(*cell)) != value}
    # A cell computed from one that would move is not derived from what the page shows.
    follows = {cell for cell in expected if cell not in moved and not (
        cell[0] is HEADER and any(key is not HEADER for key, _name in moved)) and not (
        cell[1] == "gross_amount" and (cell[0], "vat_amount") in moved)}
    return {_input_name(*cell): inputs[_input_name(*cell)] for cell in follows}


def _compact(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


# --- The live request while the user types (app/incomes/views_totals.py) ---------------------

def live(data, catalogs: dict) -> dict:
    """What the page shows after a keystroke: computed cells (with the text each replaces, so a
    cell typed in since the request is left alone), messages, the computed values.

    data: the posted form (MultiDict). A VAT or gross cell is computed only while it is empty
    or still holds the value computed last time (`totals_auto`); a typed one is checked.
    """
    context, auto = _json(data.get("totals_context")), _json(data.get("totals_auto"))
    rules = _live_rules(data, context, catalogs)
    sheet, inputs, errors = _post_sheet(data, context)
    free = {_parse_name(name) for name, text in inputs.items()
            if not text or auto.get(name) == text}
    values = {_input_name(*cell): value
              for cell, value in _fill(sheet, rates_by_id(catalogs), rules, free).items()}
    for (key, name), message in sheet_problems(sheet, rates_by_id(catalogs), rules).items():
        errors.setdefault(_input_name(key, name), message)
    shown = {name: _to_form(value) for name, value in values.items()}
    kept = {name: text for name, text in auto.items() if inputs.get(name) == text}
    return {"values": shown, "auto": {**kept, **shown},
            "was": {name: inputs.get(name, "") for name in shown},
            "errors": {name: errors.get(name, "") for name in inputs}}


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
    from app.forms.registry import spec_for

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
    state = _json(data.get("base_state"))
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


def _fill(sheet: Sheet, rates: dict, rules: Rules, free: set[tuple]) -> dict[tuple, Decimal]:
    """Compute the free cells ((row key or HEADER, column)) in place: rows from net and rate,
    the header from the rows (or its own net + VAT)."""
    out: dict[tuple, Decimal] = {}
    for key, row in sheet.rows.items():
        cells = {name for name in AMOUNTS if (key, name) in free}
        for name, value in filled(row, rates.get(row.get(RATE)), rules, cells).items():
            row[name] = out[(key, name)] = value
    rows = list(sheet.rows.values())
    for name in AMOUNTS:
        values = [row.get(name) for row in rows]
        if (HEADER, name) in free and values and None not in values:
            sheet.header[name] = out[(HEADER, name)] = sum(values, Decimal(0))
    cells = {name for name in AMOUNTS if (HEADER, name) in free and (HEADER, name) not in out}
    for name, value in filled(sheet.header, None, rules, cells).items():
        sheet.header[name] = out[(HEADER, name)] = value
    return out


def _to_form(value: Decimal) -> str:
    from app.forms.registry import spec_for

    return spec_for("net_amount").value_kind.to_form(value)


def _load(name: str, value: Any) -> Any:
    from app.forms.registry import spec_for

    return value if name == "id" else spec_for(name).value_kind.load(value)


def _json(text: str | None) -> dict:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
