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
done. A browser's own cancel is noticed only when the file is sent; the page's Cancel (below)
is noticed while it is being written.

The first upstream page is read before the download starts, so a filter the service refuses is
answered with the list and its message, not with a broken file.

In-page progress (static/js/exports.js): the page adds `?export=<id>` (an id it made) to the
link and fetches it. The export then keeps a small progress record under that id in the store
the sessions share (app/auth/session.py: files in the instance folder, or Redis), so every
worker process sees it: rows written so far (counted page by page as they are written, never
guessed), the total the first page announced (also sent at once as the `Export-Total` header),
and the state. The page polls it (`exports.progress`); its Cancel posts `exports.cancel`, which
sets a cancel flag beside the record. Between pages, before the next upstream read, the export
looks at the flag and stops: CSV and XLSX alike, also while the workbook is still being
written. A plain link (no id) keeps no record.
"""
from __future__ import annotations

import csv
import io
import itertools
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

import xlsxwriter
from flask import Response, g, jsonify, request, stream_with_context
from flask_babel import get_locale

from app.auth import company_blueprint
from app.auth.session import drop_secret, get_secret, put_secret
from app.files import disposition
from app.numbers import AMOUNT_PLACES, as_day, at_least_places, company_today, company_zone

EXPORT_PAGE_SIZE = 200
BOM = "\ufeff"
# OWASP: a cell starting with one of these is read as a formula by some spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Excel shows these in the reader's own locale (separators, date order).
NUMBER_FORMAT = "#,##0"  # grouped; _Styles.number adds the value's decimals
DATE_FORMAT = "yyyy-mm-dd"
XLSX_PLACES = 30  # the most decimals a number format may show
CHUNK_BYTES = 64 * 1024
# The id a page gives its export (?export=, static/js/exports.js): random, URL-safe.
EXPORT_ARG = "export"
EXPORT_ID = re.compile(r"[0-9A-Za-z_-]{16,64}")
TOTAL_HEADER = "Export-Total"
RUNNING, DONE, CANCELLED, FAILED = "running", "done", "cancelled", "failed"


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
    return at_least_places(value, AMOUNT_PLACES)


# An upstream date, or a timestamp's day in the company's time zone (as the page shows it),
# as a date cell; None when not one.
day = as_day


def day_and_time(moment: datetime | None) -> list:
    """A timestamp as two cells in the company's time zone: its day (a date) and "HH:MM"."""
    if moment is None:
        return [None, ""]
    local = moment.astimezone(company_zone())
    return [local.date(), local.strftime("%H:%M")]


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
    first, pages = _first_and_rest(pages)
    return pages if first is None else itertools.chain([first], pages)


def _first_and_rest(pages: Iterable) -> tuple:
    pages = iter(pages)
    return next(pages, None), pages


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


def write_xlsx(target, header: list[str], rows: Iterable[list]) -> int:
    """Write an XLSX workbook of one sheet to `target` (a path or binary file), row by row in
    constant memory; returns how many data rows it holds."""
    book = xlsxwriter.Workbook(target, {"constant_memory": True})
    sheet = book.add_worksheet()
    styles = _Styles(book)
    sheet.write_row(0, 0, header, styles.of("bold"))
    sheet.freeze_panes(1, 0)
    count = 0
    for count, line in enumerate(rows, start=1):
        for column, value in enumerate(line):
            _write_cell(sheet, count, column, value, styles)
    sheet.autofilter(0, 0, count, max(len(header) - 1, 0))
    book.close()
    return count


def xlsx_number(value: Decimal) -> float:
    """The value an XLSX number cell holds for a Decimal."""
    # XLSX stores every number as an IEEE 754 double, so a float is inherent here. A double
    # keeps 15 significant digits; the API's amounts have at most 14 (twelve before the point,
    # two after), so each reads back as the same amount (tests/app/test_xlsx_export.py).
    return float(value)


class _Styles:
    """A workbook's cell formats, each made once: a number shows its own decimals (amounts
    two, a rate its own, a count none), grouped; a date as DATE_FORMAT."""

    def __init__(self, book) -> None:
        self.book, self.made = book, {}

    def of(self, name: str):
        """The format named "bold", "date", or a number format pattern."""
        if name not in self.made:
            spec = {"bold": {"bold": True}, "date": {"num_format": DATE_FORMAT}}
            self.made[name] = self.book.add_format(spec.get(name, {"num_format": name}))
        return self.made[name]

    def number(self, value: Decimal):
        """The format of a number cell with the value's own decimals (at most XLSX_PLACES)."""
        exponent = value.as_tuple().exponent
        places = min(max(-exponent, 0), XLSX_PLACES) if isinstance(exponent, int) else 0
        return self.of(NUMBER_FORMAT + ("." + "0" * places if places else ""))


def _write_cell(sheet, row: int, column: int, value, styles: _Styles) -> None:
    if isinstance(value, Decimal):
        sheet.write_number(row, column, xlsx_number(value), styles.number(value))
    elif isinstance(value, date):
        sheet.write_datetime(row, column, value, styles.of("date"))
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


class Cancelled(Exception):
    """The page that started the export asked it to stop."""


@dataclass
class Progress:
    """One export's rows written so far and its total, kept under the page's id (key None: a
    plain download, nothing kept)."""

    key: str | None
    total: int | None
    rows: int = 0

    @classmethod
    def start(cls, total: int | None) -> Progress:
        """The progress of the export this request starts, saved at once (rows 0)."""
        progress = cls(_key(request.args.get(EXPORT_ARG)), total)
        progress.save(RUNNING)
        return progress

    def save(self, state: str) -> None:
        """Keep rows, total and state where every worker (and the polling page) reads them."""
        if self.key:
            put_secret(self.key, {"rows": self.rows, "total": self.total, "state": state})

    def count(self, pages: Iterable) -> Iterator:
        """The pages; each one's rows are counted once written (the next page is asked for
        then), and a cancel is noticed there, before the next upstream read."""
        for page in pages:
            yield page
            self.rows += len(page.items)
            if self.total is not None and self.rows > self.total:
                self.total = None  # more rows than announced: say only what is counted
            if self.key and get_secret(_cancel_key(self.key)):
                raise Cancelled
            self.save(RUNNING)

    def watch(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """The chunks; the record says how the export ended (a dropped connection forgets it)."""
        try:
            yield from chunks
        except Cancelled:
            self.save(CANCELLED)
            return
        except GeneratorExit:
            self.forget()
            raise
        except Exception:
            self.save(FAILED)
            raise
        finally:
            if self.key:
                drop_secret(_cancel_key(self.key))
        self.save(DONE)

    def forget(self) -> None:
        """Drop the record."""
        if self.key:
            drop_secret(self.key)


def _key(export_id: str | None) -> str | None:
    """The store key of an export of the current company, None for a missing or odd id."""
    if not export_id or not EXPORT_ID.fullmatch(export_id) or g.get("company_id") is None:
        return None
    return f"export:{g.company_id}:{export_id}"


def _cancel_key(key: str) -> str:
    return key + ":cancel"


def _known_total(pages: Iterable, first) -> int | None:
    """Rows the export will hold, when known before it runs: the list's count, or every row of
    pages already in memory (a list)."""
    if isinstance(pages, (list, tuple)):
        return sum(len(page.items) for page in pages)
    return getattr(first, "count", None)


def download(header: list[str], pages: Iterable, row: Callable, codes: dict,
             stem: str) -> Response:
    """The export the URL asks for (?format=xlsx, else CSV), streamed, named after the list
    (stem: in the page's language, pgettext "file name") and today; with ?export=<id>, its
    progress is kept for the page (Progress)."""
    first, rest = _first_and_rest(pages)
    progress = Progress.start(_known_total(pages, first))
    pages = progress.count(rest if first is None else itertools.chain([first], rest))
    if request.args.get("format") == "xlsx":
        chunks, mimetype, suffix = xlsx_chunks(header, pages, row, codes), XLSX_MIMETYPE, "xlsx"
    else:
        chunks = (text.encode("utf-8") for text in csv_chunks(header, pages, row, codes))
        mimetype, suffix = "text/csv", "csv"
    filename = f"{stem}-{company_today().isoformat()}.{suffix}"
    headers = {"Content-Disposition": disposition("attachment", filename)}
    if progress.total is not None:
        headers[TOTAL_HEADER] = str(progress.total)
    return Response(stream_with_context(progress.watch(chunks)), mimetype=mimetype,
                    headers=headers)


def progress_view():
    """The export's progress as JSON (rows, total, state); a finished one is forgotten once
    read. 204 while there is none: not started yet (its first page is being read), already
    read, or an unknown id (not an error the browser should log: the page polls early)."""
    key = _key(request.args.get(EXPORT_ARG))
    record = get_secret(key) if key else None
    if record is None:
        return "", 204
    if record["state"] != RUNNING:
        drop_secret(key)
    return jsonify(record)


def cancel_view():
    """Ask a running export to stop before its next upstream read (204 whatever it was)."""
    key = _key(request.form.get(EXPORT_ARG))
    record = get_secret(key) if key else None
    if record and record["state"] == RUNNING:
        put_secret(_cancel_key(key), {"cancelled": True})
    return "", 204


bp = company_blueprint("exports", __name__, url_prefix="/exports")
bp.add_url_rule("/progress", "progress", progress_view, methods=["GET"])
bp.add_url_rule("/cancel", "cancel", cancel_view, methods=["POST"])
