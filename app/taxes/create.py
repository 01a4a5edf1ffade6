"""The create grid: several new records in one request, checked before sending.

Inputs are named `rows-<index>-<field>`; rows with nothing beyond a month and a payment state
are left out. Taxes never carry a currency (spec 4.5); salaries hold one tax identification
number per payment month, checked against the grid and the records already there.
"""
from __future__ import annotations

import calendar
import re
from datetime import date

from flask_babel import gettext as _

from app.taxes import checks, upstream
from app.taxes.kinds import TAG_FIELDS, Kind
from app.taxes.rows import Row, read_row

NEW_ROWS = 5
MORE_ROWS = 5
MAX_ROWS = 200
_ROW_KEY = re.compile(r"^rows-(\d+)-")


def prefix(index) -> str:
    """The input name prefix of a new row."""
    return f"rows-{index}-"


def blank_rows(kind: Kind, count: int = NEW_ROWS, start: int = 0) -> list[Row]:
    """Empty rows for this month, not paid."""
    month = date.today().isoformat()[:7]
    return [Row(str(start + n), kind.fields, raw={"month": month, "paid_status": "1"})
            for n in range(count)]


def template_row(kind: Kind) -> Row:
    """The blank row the page's <template> holds; its key is replaced when a row is added."""
    row = blank_rows(kind, 1)[0]
    row.key = "__index__"
    return row


def read_rows(form, kind: Kind) -> list[Row]:
    """Every row the form sent, in index order (at most MAX_ROWS)."""
    indices = sorted({int(m[1]) for key in form if (m := _ROW_KEY.match(key))})
    return [read_row(form, prefix(index), str(index), kind.fields)
            for index in indices[:MAX_ROWS]]


def check(rows: list[Row], kind: Kind, api) -> list[str]:
    """The local rules on the filled rows (salaries also against the months' records).

    Messages land on the rows; the list returned is for above the grid.
    """
    if not rows:
        return [_("Fill in at least one row.")]
    for row in rows:
        checks.required(row, ("month", "amount", "tax_number"))
        checks.identity(row)
    if kind.is_salary and not any(row.has_errors for row in rows):
        checks.one_per_month(rows, _existing(api, kind, rows))
    return []


def with_more_rows(rows: list[Row], kind: Kind) -> list[Row]:
    """The rows as sent plus MORE_ROWS blank ones (adding rows without JavaScript)."""
    start = max((int(row.key) for row in rows), default=-1) + 1
    return rows + blank_rows(kind, MORE_ROWS, start)


def _existing(api, kind: Kind, rows: list[Row]) -> list[dict]:
    months = sorted(row.values["month"] for row in rows)
    first, last = date.fromisoformat(months[0]), date.fromisoformat(months[-1])
    last = last.replace(day=calendar.monthrange(last.year, last.month)[1])
    body = upstream.listing(api, kind, {"from_date": first.isoformat(),
                                        "to_date": last.isoformat()})
    return upstream.records(body, kind)


def payload(row: Row) -> dict:
    """The create item of a row: only what was given, amounts as decimal strings."""
    item = {}
    for name, value in row.values.items():
        if value in (None, "") or (name in TAG_FIELDS and not value):
            continue
        item[name] = str(value) if name == "amount" else value
    return item


def created_count(body: dict, kind: Kind) -> int:
    """How many records the create answer lists."""
    return len(upstream.records(body, kind))
