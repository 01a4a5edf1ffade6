"""Reading Bookdesk's lists as a user sees them: every page's rows, the CSV or XLSX export's rows;
the one CSV and XLSX row parsers of the tests.

Rows are keyed by what both the page and the file show: an income's invoice number, an
expense's filing number.
"""
from __future__ import annotations

import csv
import html
import io
import re

import openpyxl

ROW_KEYS = {
    "incomes": re.compile(r'<tr[^>]*data-income-id="\d+">\s*<td class="cell-number">'
                          r'<a [^>]*>([^<]*)</a>'),
    "expenses": re.compile(r'<tr[^>]*data-expense-id="\d+">\s*'
                           r'(?:<td class="cell-select">.*?</td>\s*)?'
                           r'<td class="cell-file">.*?</td>\s*'
                           r'<td class="nowrap cell-numbers"><a [^>]*>([^<]*)</a>', re.S),
    "review": re.compile(r'<tr data-row data-income-id="\d+">.*?<a data-open [^>]*>([^<]*)</a>',
                         re.S),
}
NEXT = re.compile(r'<a [^>]*rel="next" href="([^"]+)"')
RECORDS = re.compile(r"(\d+) records?")
MAX_PAGES = 50


def area_of(url: str) -> str:
    """Which list a Bookdesk URL opens."""
    return next(area for area in ROW_KEYS if f"/{area}/" in url)


def listed(client, url: str, headers: dict | None = None) -> tuple[list[str], list[str]]:
    """(row keys of every page, in order; the page texts) following the lists' Next links."""
    keys, pages, area = [], [], area_of(url)
    for _ in range(MAX_PAGES):
        response = client.get(url, headers=headers or {})
        assert response.status_code == 200, response.get_data(as_text=True)[:1000]
        text = response.get_data(as_text=True)
        pages.append(text)
        keys += [html.unescape(key) for key in ROW_KEYS[area].findall(text)]
        found = NEXT.search(text)
        if not found:
            return keys, pages
        url = html.unescape(found.group(1))
    raise AssertionError(f"more than {MAX_PAGES} pages at {url}")


def exported(client, url: str) -> list[str]:
    """The row keys of a CSV or XLSX export (first column), in order."""
    response = client.get(url)
    if "format=xlsx" in url:
        assert response.status_code == 200 and response.mimetype.endswith(".sheet")
        return [str(row[0]) for row in xlsx_rows(response.get_data(), min_row=2)]
    assert response.status_code == 200 and response.mimetype == "text/csv", response.status
    return [row[0] for row in csv_rows(response.get_data().decode("utf-8"))[1:]]


def csv_rows(text: str, delimiter: str | None = None) -> list[list[str]]:
    """Every row of a CSV file's text, a leading BOM dropped, line breaks inside cells kept.

    Without a delimiter the header's is taken: ";" (Hungarian) when it holds more semicolons
    than commas, else ",".
    """
    text = text.lstrip("\ufeff")
    if delimiter is None:
        header = text.split("\n", 1)[0]
        delimiter = ";" if header.count(";") > header.count(",") else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def xlsx_sheet(data: bytes):
    """The active worksheet of an XLSX file (openpyxl opens it)."""
    return openpyxl.load_workbook(io.BytesIO(data)).active


def xlsx_rows(data: bytes, *, min_row: int = 1, values_only: bool = True) -> list[tuple]:
    """The rows of an XLSX file's active sheet from min_row: their values, or their cells."""
    rows = xlsx_sheet(data).iter_rows(min_row=min_row, values_only=values_only)
    return [tuple(row) for row in rows]


def shown_count(page_text: str) -> int | None:
    """The "N records" a counted list says it holds (None when it does not say)."""
    found = RECORDS.search(page_text)
    return int(found.group(1)) if found else None
