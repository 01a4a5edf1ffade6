"""What the taxes and salaries pages show: the two record kinds, their words (columns, payment
states, sources, months) and the monthly listing made ready for the page.

Payment months are read and written by app/numbers.py (parse_month, format_month).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from app.exports import amount, day
from app.identifiers import show_bank_account, show_tax_number
from app.numbers import format_month, to_decimal
from app.templating import SOURCES as SOURCE_NAMES
from app.templating import paid_label, source_label
from app.upstream import Page, id_names

TEXT_FIELDS = ("code", "name", "account_number", "description")
TAG_FIELDS = ("tags", "simple_tags")


@dataclass(frozen=True)
class Kind:
    """One record kind: its pages' words and grid columns (app/upstream/taxes.py takes its name)."""

    name: str
    title: Any
    new_title: Any
    fields: tuple[str, ...]
    is_salary: bool = False

    @property
    def monthly_key(self) -> str:
        """The listing's month list key: monthly_taxes / monthly_salaries."""
        return f"monthly_{self.name}"

    @property
    def purpose(self) -> str:
        """The one-time form key purpose of the create grid."""
        return f"{self.name}.create"


TAXES = Kind("taxes", _l("Taxes"), _l("New taxes"),
             ("month", "amount", "paid_status", "code", "name", "account_number",
              "description", "tags", "simple_tags"))
SALARIES = Kind("salaries", _l("Salaries"), _l("New salaries"),
                ("month", "amount", "paid_status", "name", "account_number", "tax_number",
                 "due_at", "description", "tags", "simple_tags"), is_salary=True)
KINDS = {kind.name: kind for kind in (TAXES, SALARIES)}


MANUAL = "manual"
# Integration labels the upstream is known to put in `source`; the filter offers only these.
INTEGRATIONS = {code: SOURCE_NAMES[code] for code in ("nav", "kulcs-ber", "nexon", "novitax")}
SOURCES = (MANUAL, *INTEGRATIONS)
COLUMNS = {
    "month": _l("Payment month"), "amount": _l("Amount"), "paid_status": _l("Payment"),
    "code": _l("Tax code"), "account_number": _l("Bank account number"),
    "tax_number": _l("Tax identification number"), "due_at": _l("Due date"),
    "description": _l("Description"), "tags": _l("Tags"), "simple_tags": _l("Simple tags"),
    "source": _l("Source"),
}
NAMES = {"taxes": _l("Tax name"), "salaries": _l("Employee")}


def column(field: str, kind_name: str = "taxes") -> str:
    """The column heading of a field (the name column depends on the kind)."""
    if field == "name":
        return str(NAMES[kind_name])
    return str(COLUMNS.get(field, field))


def month_label(value) -> str:
    """A payment month as words: "2024. március" / "March 2024"."""
    return format_month(value) or str(value or "")


def count_label(kind_name: str, count: int) -> str:
    """"3 taxes" / "1 salary"."""
    if kind_name == "salaries":
        return ngettext("%(num)d salary", "%(num)d salaries", count)
    return ngettext("%(num)d tax", "%(num)d taxes", count)


def is_synced(record: dict) -> bool:
    """True for a record an integration delivered."""
    return (record.get("source") or MANUAL) != MANUAL


# With more months than this, only the newest is open when the page loads.
OPEN_ALL_UP_TO = 3


def months(body: dict, kind: Kind, opened: set[str] = frozenset()) -> list[dict]:
    """The listing's months, newest first, each with its records ready to show.

    Months in `opened` (YYYY-MM) start open; with none, all do when there are few.
    """
    names = id_names(body.get("tags") or [])
    result = []
    for month in body.get(kind.monthly_key) or []:
        for tag in month.get("tags") or []:
            names.setdefault(tag.get("id"), tag.get("name"))
        result.append({**month, "label": month_label(month.get("month")),
                       "records": [_record(r, names) for r in month.get(kind.name) or []]})
    result.sort(key=lambda month: str(month.get("month")), reverse=True)
    for number, month in enumerate(result):
        key = str(month.get("month"))[:7]
        month["open"] = key in opened if opened else (len(result) <= OPEN_ALL_UP_TO or
                                                      number == 0)
    return result


def _record(record: dict, names: dict) -> dict:
    return {**record, "synced": is_synced(record),
            "source_label": source_label(record.get("source")),
            "tag_names": [names.get(i, f"#{i}") for i in record.get("tags") or []],
            "simple_tag_names": [names.get(i, f"#{i}") for i in record.get("simple_tags") or []]}


def total(month_list: list[dict]) -> Decimal:
    """The sum of the months' totals."""
    amounts = (to_decimal(month.get("amount")) or Decimal(0) for month in month_list)
    return sum(amounts, Decimal(0))


def selected(body: dict, kind: Kind, ids: list[int]) -> list[dict]:
    """The listing's records among `ids`, in the listing's order."""
    wanted = set(ids)
    return [record for month in body.get(kind.monthly_key) or []
            for record in month.get(kind.name) or [] if record.get("id") in wanted]


# The list's export: the months as the page shows them, one line per record.

def export_pages(months_shown: list[dict], currency: str | None) -> list[Page]:
    """The listing as one export page: every record of every month, newest month first, each
    with its month; the company currency among the lookups."""
    items = [{**record, "payment_month": month.get("month")}
             for month in months_shown for record in month["records"]]
    return [Page(items=items, lookups={"company": {"currency": currency or ""}})]


def export_fields(kind: Kind) -> tuple[str, ...]:
    """The export's columns in the order the page shows them, month first."""
    if kind.is_salary:
        return ("month", "name", "tax_number", "account_number", "due_at", "description",
                "tags", "simple_tags", "source", "paid_status", "amount")
    return ("month", "code", "name", "account_number", "description", "tags", "simple_tags",
            "source", "paid_status", "amount")


def export_header(kind: Kind) -> list[str]:
    """The export's column titles for the kind, in the page's language."""
    return [column(field, kind.name) for field in export_fields(kind)] + [str(_l("Currency"))]


def export_row(kind: Kind, record: dict, lookups: dict) -> list:
    """One record as cells: the month and due day as dates, the amount a number."""
    cells = {"month": day(record.get("payment_month")), "code": record.get("code") or "",
             "name": record.get("name") or "",
             "tax_number": show_tax_number(record.get("tax_number")),
             "account_number": show_bank_account(record.get("account_number")),
             "due_at": day(record.get("due_at")), "description": record.get("description") or "",
             "tags": ", ".join(record.get("tag_names") or []),
             "simple_tags": ", ".join(record.get("simple_tag_names") or []),
             "source": record.get("source_label") or "",
             "paid_status": paid_label(record.get("paid_status")),
             "amount": amount(record.get("amount"))}
    return [cells[field] for field in export_fields(kind)] + [
        lookups.get("company", {}).get("currency", "")]
