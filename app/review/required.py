"""What must be filled before an income may be marked reviewed (spec 2.1, 4.2).

The API takes a bare review flag even when the income is not complete, and the books are then
wrong without anyone noticing; so "done" is refused here, before any write, while:
- the company uses advanced accounting and an assignment has no revenue type (or there is
  no assignment at all: spec 4.2 create rule 1, at least one revenue categorisation);
- only one of a pair the API wants together is set: VAT period type and start, accounting
  period start and end (spec 4.2 update rules 6, 7), or the period starts after it ends;
- the income is in a foreign currency without an actual exchange rate (create rule 2).

The check reads a record-shaped dict: the detail, or the detail with the reviewer's changes
applied (references as ids or {id, name} objects alike), or (bulk "done") the list record: the
list carries no VAT period fields, so that pair is not checked there (the API keeps it whole on
every write, so an unedited income has both or neither).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from flask_babel import gettext as _

from app.forms import spec_for
from app.upstream.responses import ref

PAIRS = (("vat_period_type", "vat_period_started_at"),
         ("accounting_period_start", "accounting_period_end"))


@dataclass(frozen=True)
class Missing:
    """One value missing: the assignment position (None: the income itself), field, why."""

    row: int | None
    field: str
    message: str


def missing(record: dict, settings: dict) -> list[Missing]:
    """Everything the API will require that the income lacks (empty: it may be done)."""
    return [*_revenue_types(record, settings), *_pairs(record), *_period(record),
            *_exchange_rate(record, settings)]


def merged(record: dict, body: dict) -> dict:
    """The record as it will be after a PATCH with `body` (top-level keys replaced)."""
    return {**record, **body}


def _revenue_types(record: dict, settings: dict) -> list[Missing]:
    if not settings.get("advanced_accounting"):
        return []
    rows = record.get("assignments") or []
    if not rows:
        return [Missing(None, "assignments", _(
            "Add a revenue categorisation: the company uses advanced accounting, which needs "
            "one before the income is done."))]
    return [Missing(index, "revenue_type", _(
        "Choose a revenue type: the company uses advanced accounting, which needs one on "
        "every row before the income is done."))
        for index, row in enumerate(rows) if ref(row.get("revenue_type")) in (None, "")]


def _pairs(record: dict) -> list[Missing]:
    found = []
    for first, second in PAIRS:
        if first not in record and second not in record:
            continue
        filled = {name: record.get(name) not in (None, "") for name in (first, second)}
        if filled[first] != filled[second]:
            empty = first if not filled[first] else second
            found.append(Missing(None, empty, _(
                "Fill this in as well: the accounting service wants both values of the pair, "
                "or neither.")))
    return found


def _period(record: dict) -> list[Missing]:
    start, end = record.get("accounting_period_start"), record.get("accounting_period_end")
    if start and end and str(start) > str(end):
        return [Missing(None, "accounting_period_start",
                        _("The start may not be after the end of the period."))]
    return []


def _exchange_rate(record: dict, settings: dict) -> list[Missing]:
    currency, own = record.get("currency"), settings.get("default_currency_name")
    code = currency.get("code") if isinstance(currency, dict) else None
    if not code or not own or code == own or _rate(record.get("exchange_rate")) not in (None, 1):
        return []
    return [Missing(None, "exchange_rate", _(
        "Enter the actual exchange rate: the currency is not %(code)s, the company's own.",
        code=own))]


def _rate(value) -> Decimal | None:
    try:
        return None if value in (None, "") else Decimal(str(value))
    except InvalidOperation:
        return None


def show(form, found: list[Missing]) -> None:
    """Put each message on its field or table cell of the review form (else above the form)."""
    table = form.layout.table
    for item in found:
        if item.row is None and form.is_editable(item.field):
            form.add_error(item.field, item.message)
            continue
        if item.row is None:
            form.form_errors.append(f"{spec_for(item.field).label}: {item.message}")
            continue
        cell = _cell(form, table, item)
        if cell is not None:
            cell.errors = [*cell.errors, item.message]
        else:
            form.row_errors.setdefault("assignments", {}).setdefault(item.row, []).append(
                item.message)
    if found:
        form.form_errors.append(_("Not marked done: fill in what is marked first. Nothing was "
                                  "sent."))


def _cell(form, table, item: Missing):
    if table is None or not table.editable or item.field not in table.editable:
        return None
    entries = form[table.name].entries
    return entries[item.row][item.field] if item.row < len(entries) else None


def refused(records: dict[int, dict], settings: dict, codes: dict) -> dict[int, str]:
    """{id: what is missing} for the incomes of a bulk "done" that may not be done yet, checked
    on the records in hand (list or detail shape; codes: currency id -> ISO code)."""
    found = {income_id: missing(_with_code(record, codes), settings)
             for income_id, record in records.items()}
    return {income_id: _summary(items) for income_id, items in found.items() if items}


def _with_code(record: dict, codes: dict) -> dict:
    """A list record names its currency by id; the exchange-rate check needs its code."""
    currency = record.get("currency")
    if currency is None or isinstance(currency, dict):
        return record
    return {**record, "currency": {"id": currency, "code": codes.get(currency)}}


def _summary(found: list[Missing]) -> str:
    return " ".join(dict.fromkeys(item.message for item in found))
