"""What the expense pages show: names of states, sources and actions, the detail's field groups
(amounts from the assignments, references by code and name), the list's rows (formatted
once in Python, app/templating.py says why) and the CSV export's columns.

Payment state and method labels are shared with the other record lists: app/templating.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from app.exports import amount as csv_amount
from app.exports import day
from app.forms import EXPENSE_ASSIGNMENT_FIELDS, display_text, spec_for
from app.forms.display import entry_label, truthy
from app.forms.registry import currency_code, field_label, group_label
from app.numbers import currency_name, days_between, format_datetime, to_decimal
from app.templating import (
    PAID_STATUS,
    Amount,
    Days,
    Section,
    Words,
    amount,
    amount_cells,
    date_cells,
    method_label,
    overdue_mark,
    paid_badge,
    paid_label,
    record_number,
    source_label,
    vat_text,
)
from app.totals import expense_amounts as totals
from app.totals import rate_and_forints

ACCOUNTING_STATUS = {"unprocessed": _l("Not processed"), "processed": _l("Processed"),
                     "checked": _l("Checked"), "booked": _l("Booked"),
                     "excluded": _l("Excluded from accounting")}
STATUS_BADGE = {"processed": "attention", "checked": "ok", "booked": "ok", "excluded": "muted"}
ACTIONS = {"exclude_from_accounting": _l("Excluded from accounting"),
           "include_in_accounting": _l("Included in accounting again")}


def status_label(status) -> str:
    """The accounting state as words (not processed, processed, checked, booked, excluded)."""
    return str(ACCOUNTING_STATUS.get(status, status or ""))


def status_badge(status) -> str:
    """The badge colour of an accounting state."""
    return STATUS_BADGE.get(status, "muted")


def action_label(kind) -> str:
    """An expense action (the exclusion history) as words."""
    return str(ACTIONS.get(kind, kind or ""))


AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
REFERENCES = ("ledger_number", "vat_ledger_number", "company_vat_category")
OVERVIEW = {
    "document": ("filing_number", "invoice_number", "secondary_id", "issued_at", "fulfilled_at",
                 "due_at", "vat_area", "source", "created_at", "updated_at"),
    "amounts": ("currency", "exchange_rate"),
    "payment": ("payment_method", "planned_payment_date", "account"),
}
EXTRA_LABELS = {"filing_number": _l("Filing number"), "source": _l("Source"),
                "created_at": _l("Created"), "updated_at": _l("Last changed")}
TIMESTAMPS = ("created_at", "updated_at")


def sections(expense: dict, catalogs: dict, settings: dict) -> list[Section]:
    """The detail's field groups; empty fields (and the rate of the home currency) left out."""
    result = []
    for group, names in OVERVIEW.items():
        rows = [(field_label(name, EXTRA_LABELS), _text(name, expense, catalogs))
                for name in names
                if truthy(expense.get(name)) and not _home_rate(name, expense, settings)]
        if rows:
            result.append(Section(group_label(group), rows))
    custom = expense.get("custom_fields") or {}
    if custom:
        result.append(Section(_l("Custom fields"), [(key, str(value))
                                                   for key, value in custom.items()]))
    return result


def _home_rate(name: str, expense: dict, settings: dict) -> bool:
    currency = expense.get("currency")
    code = currency.get("code") if isinstance(currency, dict) else None
    return name == "exchange_rate" and code == settings.get("default_currency_name") and \
        to_decimal(expense.get(name)) == 1


def _text(name: str, expense: dict, catalogs: dict) -> str:
    if name in TIMESTAMPS:
        return format_datetime(expense.get(name))
    if name == "source":
        return source_label(expense.get(name))
    if name == "currency" and isinstance(expense.get(name), dict):
        code = currency_code(expense[name], catalogs)  # else its name, when no code is known
        if code and len(code) == 3:  # named in the page's language
            return f"{code} – {currency_name(code, expense[name].get('name'))}"
        return code or ""
    return display_text(spec_for(name), expense.get(name), expense, catalogs)


def assignment_columns(rows: list[dict], advanced: bool) -> list:
    """Columns worth showing: type and amounts always, the rest when some row has a value."""
    specs = [spec_for(name) for name in EXPENSE_ASSIGNMENT_FIELDS]
    always = ("expense_type", *AMOUNTS, "vat")
    return [spec for spec in specs if spec.name in always
            or any(truthy(row.get(spec.name)) for row in rows)
            or (advanced and spec.name in REFERENCES)]


def cell(spec, row: dict, expense: dict, catalogs: dict) -> str:
    """One assignment cell as text: VAT with its percent, a reference as its select names it."""
    value = row.get(spec.name)
    if spec.name == "vat":
        return vat_text(value)
    if spec.name == "expense_type" and isinstance(value, dict):
        return value.get("name") or f"#{value.get('id')}"
    if spec.name in REFERENCES and isinstance(value, dict):
        return entry_label(spec.catalog.split(":")[0], value)
    return display_text(spec, value, expense, catalogs)


FILE_ATTACHED = _l("File attached: %(kind)s")
SELECT = _l("Select %(name)s")


@dataclass(slots=True)
class Row:
    """One expense as the list shows it."""

    id: int
    filing: str
    invoice_number: str
    partner: str
    file: tuple[str, str, str] | None
    dates: tuple[str, str]
    overdue: bool
    types: list[str]
    amounts: tuple[Amount, Amount, Amount]
    paid: tuple[str, str]
    status: tuple[str, str] | None
    excluded: bool
    days_overdue: int | None = None
    tags: list[str] = field(default_factory=list)
    select_label: str = ""
    # The date cells and the amount cells, each built once in Python.
    date_cells: Markup = Markup("")
    amount_cells: Markup = Markup("")


def list_rows(items: list[dict], codes: dict, lookups: dict, today: str) -> list[Row]:
    """Rows for the expense table: every label and format worked out once per page."""
    words = Words(paid=PAID_STATUS, status=ACCOUNTING_STATUS, file=FILE_ATTACHED, select=SELECT,
                  overdue=overdue_mark(_("Overdue")))
    names = {"types": lookups.get("expense_types", {}), "tags": lookups.get("tags", {})}
    days = Days(words.locale)
    return [_row(expense, codes, names, today, words, days) for expense in items]


def _row(expense: dict, codes: dict, names: dict, today: str, words: Words, days: Days) -> Row:
    code = codes.get(expense.get("currency"))
    due, paid, status = expense.get("due_at"), expense.get("paid_status"), expense.get(
        "accounting_status")
    sums = totals(expense)
    filing = record_number(expense, "filing_number")
    dates, overdue = (days[expense.get("issued_at")], days[due]), paid != 2 and bool(due) and \
        due < today
    amounts = tuple(amount(sums[name], code, words.locale) for name in AMOUNTS)
    return Row(
        id=expense["id"], filing=filing, invoice_number=expense.get("invoice_number") or "—",
        partner=expense.get("partner_name") or "—", file=_file(expense, words),
        dates=dates, overdue=overdue, types=_types(expense, names["types"]), amounts=amounts,
        paid=(words["paid"].get(paid, str(paid or "")), paid_badge(paid)),
        status=(words["status"].get(status, status), status_badge(status))
        if status else None,
        excluded=bool(expense.get("excluded_from_accounting")),
        tags=[names["tags"].get(tag, f"#{tag}") for tag in expense.get("tags") or []],
        days_overdue=days_between(due, today) if paid != 2 and due and due < today else None,
        select_label=words["select"] % {"name": filing},
        date_cells=date_cells(dates, overdue, words["overdue"]),
        amount_cells=amount_cells(amounts))


def _file(expense: dict, words: Words) -> tuple[str, str, str] | None:
    """(icon style, kind shown, description) when the expense has a file."""
    if not expense.get("has_artifact"):
        return None
    extension = expense.get("artifact_extension") or ""
    kind = extension.upper()
    return (extension or "file", kind or "?", words["file"] % {"kind": kind})


def _types(expense: dict, type_names: dict) -> list[str]:
    """The names of the expense types its assignments use, each once, in order."""
    ids = dict.fromkeys(row.get("expense_type") for row in expense.get("assignments") or [])
    return [type_names.get(type_id, f"#{type_id}") for type_id in ids if type_id]


def export_header() -> list[str]:
    """Column titles."""
    return [_("Filing number"), _("Invoice number"), _("Partner"), _("Issue date"),
            _("Fulfilment date"), _("Due date"), _("Created"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"),
            _("Payment method"), _("Expense types"), _("Accounting status"), _("File"),
            _("Secondary ID"), _("Tags"), _("Exchange rate"), _("Gross in forints")]


def export_row(expense: dict, lookups: dict) -> list:
    """One expense as export cells (dates as dates, amounts as numbers from the assignments)."""
    sums = totals(expense)
    types = lookups.get("expense_types", {})
    kinds = dict.fromkeys(types.get(a.get("expense_type"), "") for a in
                          expense.get("assignments") or [])
    tags = lookups.get("tags", {})
    return [expense.get("filing_number") or "", expense.get("invoice_number") or "",
            expense.get("partner_name") or "", day(expense.get("issued_at")),
            day(expense.get("fulfilled_at")), day(expense.get("due_at")),
            day(expense.get("created_at")),
            *(csv_amount(sums[key]) for key in ("net_amount", "vat_amount", "gross_amount")),
            lookups.get("codes", {}).get(expense.get("currency"), ""),
            paid_label(expense.get("paid_status")), method_label(expense.get("payment_method")),
            ", ".join(k for k in kinds if k), status_label(expense.get("accounting_status")),
            _("Yes") if expense.get("has_artifact") else _("No"),
            expense.get("secondary_id") or "",
            ", ".join(tags.get(t, str(t)) for t in expense.get("tags") or []),
            *rate_and_forints(expense, lookups.get("codes", {}).get(expense.get("currency")),
                              totals)]

