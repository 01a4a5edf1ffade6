"""Tabular exports of a filtered list: CSV and XLSX downloads, written as the upstream pages
are read, so memory stays flat however many rows the filter holds. Areas give the columns.

A row's cells are typed: amounts are Decimals (see `amount`), dates are dates (see `day`),
everything else is text.

CSV is what spreadsheets open without asking: UTF-8 with BOM, `;` and a decimal comma in
Hungarian, `,` and a decimal point in English. Numbers are bare, text is always quoted, and text
that a spreadsheet would read as a formula is neutralised as OWASP's CSV-injection guidance says
(a leading single quote). The file streams: one chunk per upstream page, so the browser's
download shows progress, and a cancelled download closes the stream, which stops the reading.

XLSX has numeric cells with a number format and date cells with a date format; text goes in as
text cells, which a spreadsheet never runs. The workbook is written in XlsxWriter's constant
memory mode (each row goes to a temporary file as it comes), then the finished file is sent in
chunks. Its download starts at once (the headers go out first) and grows when the file is
done; a cancel is noticed when the file is sent, not while it is being written.

The first upstream page is read before the download starts, so a filter the service refuses is
answered with the list and its message, not with a broken file.
"""
from __future__ import annotations

import csv
import io
import itertools
import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from decimal import Decimal, InvalidOperation

import xlsxwriter
from flask import Response, request, stream_with_context
from flask_babel import get_locale

EXPORT_PAGE_SIZE = 200
BOM = "\ufeff"
CENTS = Decimal("0.01")
# OWASP: a cell starting with one of these is read as a formula by some spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Excel shows these in the reader's own locale (separators, date order).
NUMBER_FORMAT = "#,##0.00"
DATE_FORMAT = "yyyy-mm-dd"
CHUNK_BYTES = 64 * 1024


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


def day(value) -> date | None:
    """An upstream date (or the date part of a date-time) as a date cell; None when not one."""
    try:
        return date.fromisoformat(str(value or "")[:10])
    except ValueError:
        return None


def neutralise(text: str) -> str:
    """Text a spreadsheet could take for a formula, with a leading quote that keeps it text."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cells(row: Iterable, number: type[_Number]) -> list:
    """A row as the CSV writer takes it: Decimals as bare numbers, dates in ISO form, the rest
    as neutralised text."""
    return [number(value) if isinstance(value, Decimal) else
            "" if value is None else neutralise(str(value)) for value in row]


def records(pages: Iterable, row: Callable[[dict, dict], list], codes: dict) -> Iterator[list]:
    """row(record, lookups) for every record of every page, as the pages come; lookups are
    the page's tables plus the currency codes."""
    for page in pages:
        lookups = {**page.lookups, "codes": codes}
        for record in page.items:
            yield row(record, lookups)


def first_page_now(pages: Iterable) -> Iterator:
    """The same pages, the first one read now (a refused filter raises here), the rest later."""
    pages = iter(pages)
    first = next(pages, None)
    return pages if first is None else itertools.chain([first], pages)


def csv_chunks(header: list[str], pages: Iterable, row: Callable, codes: dict) -> Iterator[str]:
    """The CSV text: the BOM and the header, then one chunk per upstream page."""
    separator, decimal_mark = dialect()
    number = _CommaNumber if decimal_mark == "," else _Number
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n",
                        quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(cells(header, number))
    yield BOM + _drain(buffer)
    for page in pages:
        writer.writerows(cells(line, number) for line in records([page], row, codes))
        yield _drain(buffer)


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


def csv_body(header: list[str], pages: Iterable, row: Callable, codes: dict) -> str:
    """The whole CSV text, BOM first (the streamed chunks joined)."""
    return "".join(csv_chunks(header, pages, row, codes))


def write_xlsx(target, header: list[str], rows: Iterable[list]) -> int:
    """Write an XLSX workbook of one sheet to `target` (a path or binary file), row by row in
    constant memory; returns how many data rows it holds."""
    book = xlsxwriter.Workbook(target, {"constant_memory": True})
    sheet = book.add_worksheet()
    styles = {"bold": book.add_format({"bold": True}),
              Decimal: book.add_format({"num_format": NUMBER_FORMAT}),
              date: book.add_format({"num_format": DATE_FORMAT})}
    sheet.write_row(0, 0, header, styles["bold"])
    sheet.freeze_panes(1, 0)
    count = 0
    for count, line in enumerate(rows, start=1):
        for column, value in enumerate(line):
            _write_cell(sheet, count, column, value, styles)
    sheet.autofilter(0, 0, count, max(len(header) - 1, 0))
    book.close()
    return count


def _write_cell(sheet, row: int, column: int, value, styles: dict) -> None:
    if isinstance(value, Decimal):
        sheet.write_number(row, column, float(value), styles[Decimal])
    elif isinstance(value, date):
        sheet.write_datetime(row, column, value, styles[date])
    elif value not in (None, ""):
        sheet.write_string(row, column, str(value))


def xlsx_chunks(header: list[str], pages: Iterable, row: Callable,
                codes: dict) -> Iterator[bytes]:
    """An empty chunk at once (the server sends the headers: the browser's download starts),
    the workbook written as the pages come, then the finished file in chunks."""
    yield b""
    with tempfile.TemporaryFile() as target:
        write_xlsx(target, header, records(pages, row, codes))
        target.seek(0)
        while chunk := target.read(CHUNK_BYTES):
            yield chunk


def download(header: list[str], pages: Iterable, row: Callable, codes: dict,
             stem: str) -> Response:
    """The export the URL asks for (?format=xlsx, else CSV), streamed, named after the list
    and today."""
    pages = first_page_now(pages)
    if request.args.get("format") == "xlsx":
        chunks, mimetype, suffix = xlsx_chunks(header, pages, row, codes), XLSX_MIMETYPE, "xlsx"
    else:
        chunks = (text.encode("utf-8") for text in csv_chunks(header, pages, row, codes))
        mimetype, suffix = "text/csv", "csv"
    filename = f"{stem}-{date.today().isoformat()}.{suffix}"
    return Response(stream_with_context(chunks), mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
