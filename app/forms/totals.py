"""Totals that add up: VAT and gross worked out from net and the VAT rate, and the checks every
form with amounts passes before anything is sent.

One sheet (the header's net / VAT / gross and the categorisation rows with their VAT category)
is checked the same way from a submitted form (app.forms.check runs `check_form_totals`) and
from the live request the page sends while the user types (app/forms/totals_page.py), so the
page can never show a total the submit would refuse, nor the reverse.

Rules (spec 2.2, 3):
- VAT is rounded half up to the currency's smallest unit (whole forints; others as
  app.numbers.amount_places says);
- per line, VAT may differ from net x rate by at most one smallest unit (rounding), and
  net + VAT must equal gross exactly; the header must equal the sum of the rows;
- a storno carries no positive amount; any other new document no negative one; an existing
  record that already holds negative amounts (a correction synced from an invoicing program)
  keeps one sign per line.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask import request
from flask_babel import gettext as _

from app.forms.registry import currency_code, spec_for
from app.forms.tables import base_rows, base_values, load_rows
from app.numbers import (
    WHOLE_CURRENCIES,
    amount_places,
    format_amount,
    format_number,
    to_decimal,
)

AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
RATE = "vat"
HEADER = None  # the key of the header line among the rows' keys
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
                          rate=_percent(rate), net=format_amount(net, rules.currency),
                          vat=format_amount(vat_of(net, rate, rules.unit), rules.currency),
                          typed=format_amount(implied, rules.currency))
    if None not in (net, vat, gross) and net + vat != gross and "gross_amount" not in found:
        found["gross_amount"] = _("Net + VAT is %(sum)s, not %(gross)s.",
                                  sum=format_amount(net + vat, rules.currency),
                                  gross=format_amount(gross, rules.currency))
    return found


def column_sums(rows: list[dict]) -> dict[str, Decimal | None]:
    """Each amount column's sum over the rows that hold an amount; None where one of them
    lacks it or there is none."""
    rows = [row for row in rows if any(row.get(name) is not None for name in AMOUNTS)]
    sums = {}
    for name in AMOUNTS:
        values = [row.get(name) for row in rows]
        sums[name] = sum(values, Decimal(0)) if values and None not in values else None
    return sums


def sum_problems(header: dict, rows: list[dict], rules: Rules) -> dict[str, str]:
    """{header field: message} where the header differs from the sum of the rows."""
    found = {}
    for name, total in column_sums(rows).items():
        if header.get(name) is None or total is None:
            continue
        if total != header[name]:
            found[name] = _("The rows below add up to %(sum)s.",
                            sum=format_amount(total, rules.currency))
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
    return {item["id"]: rate for item in catalogs.get("vat_categories") or []
            if isinstance(item, dict) and (rate := to_decimal(item.get("percent"))) is not None}


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
    number = to_decimal(value)
    return number is not None and number < 0


# --- A submitted form (app.forms.check) -------------------------------------------------------

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
    fits = _follow_page(form, sheet, rates, rules)
    found = sheet_problems(sheet, rates, rules)
    for (key, name), message in found.items():
        if key is HEADER:
            form.add_error(name, message)
        else:
            _row_error(form, key, name, message)
    return fits and not found


def table_sums(form) -> dict[str, dict[str, str]]:
    """The total row of a form's amount table as rendered (see sum_texts); {} without one."""
    table = form.layout.table
    if table is None or not any(spec.name in AMOUNTS for spec in table.columns):
        return {}
    return sum_texts(form_sheet(form), form_rules(form))


def sum_texts(sheet: Sheet, rules: Rules) -> dict[str, dict[str, str]]:
    """The rows' sum of each amount column as shown ("" where a cell is empty or unreadable),
    and, on a saved record, the saved sum beside it where the rows no longer add up to it:
    a changed split is seen before it is sent."""
    now = column_sums(list(sheet.rows.values()))
    saved = {} if sheet.new else column_sums(list(sheet.base.values()))
    return {"sums": {name: format_amount(value, rules.currency) for name, value in now.items()},
            "saved": {name: _("saved: %(amount)s",
                              amount=format_amount(saved[name], rules.currency))
                      if saved.get(name) is not None and saved[name] != value else ""
                      for name, value in now.items()}}


def _follow_page(form, sheet: Sheet, rates: dict, rules: Rules) -> bool:
    """Cells the page computed (totals_auto) and the user left alone follow their sources, as
    they would have had the page's last answer come before the submit; False when one of them
    then holds what a typed value could not."""

    auto = read_json(request.form.get("totals_auto"))
    cells, fits = cell_fields(form), True
    free = {cell for cell, field in cells.items()
            if auto.get(field.name) and str(field.data or "").strip() == auto[field.name]}
    for (key, name), value in fill_sheet(sheet, rates, rules, free).items():
        if key is HEADER:
            form.values[name] = value
        field = cells[(key, name)]
        field.data, problem = computed_text(name, value)  # shown if the form comes back
        if problem:
            field.errors, fits = [*field.errors, problem], False
    return fits


def computed_text(name: str, value: Decimal) -> tuple[str, str | None]:
    """A computed amount as its input shows it, and why a typed one like it would be refused
    (a gross past twelve digits), else None: the page and the submit hold it alike."""
    kind = spec_for(name).value_kind
    text = kind.to_form(value)
    try:
        kind.parse(text)
    except ValueError as exc:
        return text, str(exc)
    return text, None


def _row_error(form, key: int, name: str, message: str) -> None:
    table = form.layout.table
    if table.editable and name in table.editable and key < len(form[table.name].entries):
        cell = form[table.name].entries[key][name]
        cell.errors = [*cell.errors, message]
        return
    label = next((spec.label for spec in table.columns if spec.name == name), name)
    form.row_errors.setdefault(table.name, {}).setdefault(key, []).append(f"{label}: {message}")


def cell_fields(form) -> dict[tuple, Any]:
    """{(row key or HEADER, column): input} of the amount inputs and VAT cells of a form."""
    cells = {(HEADER, name): form[name] for name in AMOUNTS
             if form.is_editable(name) and name in form}
    table = form.layout.table
    if table is not None and table.editable and table.name in form:
        cells.update({(key, column): entry[column]
                      for key, entry in enumerate(form[table.name].entries)
                      for column in (*AMOUNTS, RATE) if column in table.editable})
    return cells


def fill_sheet(sheet: Sheet, rates: dict, rules: Rules, free: set[tuple]) -> dict[tuple, Decimal]:
    """Compute the free cells ((row key or HEADER, column)) in place: rows from net and rate,
    the header from the rows (or its own net + VAT)."""
    out: dict[tuple, Decimal] = {}
    for key, row in sheet.rows.items():
        cells = {name for name in AMOUNTS if (key, name) in free}
        for name, value in filled(row, rates.get(row.get(RATE)), rules, cells).items():
            row[name] = out[(key, name)] = value
    for name, total in column_sums(list(sheet.rows.values())).items():
        if (HEADER, name) in free and total is not None:
            sheet.header[name] = out[(HEADER, name)] = total
    cells = {name for name in AMOUNTS if (HEADER, name) in free and (HEADER, name) not in out}
    for name, value in filled(sheet.header, None, rules, cells).items():
        sheet.header[name] = out[(HEADER, name)] = value
    return out


def read_json(text: str | None) -> dict:
    """A JSON object from posted text; {} when it is anything else."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
