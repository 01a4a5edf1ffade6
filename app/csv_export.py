"""CSV downloads of a filtered list, as spreadsheets open them: UTF-8 with BOM, `;` and a
decimal comma in Hungarian, `,` and a decimal point in English. Areas give the columns."""
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


def dialect() -> tuple[str, str]:
    """(separator, decimal mark) for the current locale: Excel opens either without asking."""
    return (";", ",") if str(get_locale() or "hu").startswith("hu") else (",", ".")


def amount_text(value, decimal_mark: str) -> str:
    """An amount with two decimals and the locale's decimal mark; empty when not a number."""
    try:
        text = str(Decimal(str(value)).quantize(Decimal("0.01")))
    except (InvalidOperation, ValueError):
        return ""
    return text.replace(".", decimal_mark)


def csv_body(header: list[str], pages: Iterable, row: Callable[[dict, dict, str], list[str]],
             codes: dict) -> str:
    """The CSV text, BOM first: row(record, lookups, decimal_mark) for every record of every
    page; lookups are the page's tables plus the currency codes."""
    separator, decimal_mark = dialect()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n")
    writer.writerow(header)
    for page in pages:
        lookups = {**page.lookups, "codes": codes}
        writer.writerows(row(record, lookups, decimal_mark) for record in page.items)
    return BOM + buffer.getvalue()


def csv_response(body: str, stem: str) -> Response:
    """The download, named after the list and today's date."""
    filename = f"{stem}-{date.today().isoformat()}.csv"
    return Response(body.encode("utf-8"), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
