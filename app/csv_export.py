"""CSV downloads of a filtered list, as spreadsheets open them: UTF-8 with BOM, `;` and a
decimal comma in Hungarian, `,` and a decimal point in English. Areas give the columns.

A row's cells are typed: amounts are Decimals (see `amount`) and are written as bare numbers in
the locale's form; everything else is text, always quoted, and text that a spreadsheet would read
as a formula is neutralised as OWASP's CSV-injection guidance says (a leading single quote).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from datetime import date
from decimal import Decimal, InvalidOperation

from flask import Response
from flask_babel import get_locale

EXPORT_PAGE_SIZE = 200
BOM = "\ufeff"
CENTS = Decimal("0.01")
# OWASP: a cell starting with one of these is read as a formula by some spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Number(Decimal):
    """A number cell: csv's QUOTE_NONNUMERIC leaves it bare; written with the file's mark."""

    mark = "."

    def __str__(self) -> str:
        return format(self, "f").replace(".", self.mark)


class _CommaNumber(_Number):
    mark = ","


def dialect() -> tuple[str, str]:
    """(separator, decimal mark) for the current locale: Excel opens either without asking."""
    return (";", ",") if str(get_locale() or "hu").startswith("hu") else (",", ".")


def amount(value) -> Decimal | None:
    """An upstream amount as a number cell, at least two decimals; None when not a number."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not number.is_finite():
        return None
    return number.quantize(CENTS) if number.as_tuple().exponent >= -2 else number


def neutralise(text: str) -> str:
    """Text a spreadsheet could take for a formula, with a leading quote that keeps it text."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cells(row: Iterable, number: type[_Number]) -> list:
    """A row as the writer takes it: Decimals as bare numbers, the rest as neutralised text."""
    return [number(value) if isinstance(value, Decimal) else
            "" if value is None else neutralise(str(value)) for value in row]


def csv_body(header: list[str], pages: Iterable, row: Callable[[dict, dict], list],
             codes: dict) -> str:
    """The CSV text, BOM first: row(record, lookups) for every record of every page; lookups
    are the page's tables plus the currency codes."""
    separator, decimal_mark = dialect()
    number = _CommaNumber if decimal_mark == "," else _Number
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n",
                        quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(cells(header, number))
    for page in pages:
        lookups = {**page.lookups, "codes": codes}
        writer.writerows(cells(row(record, lookups), number) for record in page.items)
    return BOM + buffer.getvalue()


def csv_response(body: str, stem: str) -> Response:
    """The download, named after the list and today's date."""
    filename = f"{stem}-{date.today().isoformat()}.csv"
    return Response(body.encode("utf-8"), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
