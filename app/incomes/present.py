"""What the income pages show: names of states, the detail's field groups, the list's
rows (formatted once in Python, app/templating.py says why) and the CSV export's columns.

Payment state and method labels are shared with the other record lists: app/templating.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from app.exports import amount as csv_amount
from app.exports import day
from app.forms import INCOME_ASSIGNMENT_FIELDS, display_text, spec_for
from app.forms.display import truthy
from app.forms.registry import currency_code, field_label, group_label
from app.identifiers import show_tax_number
from app.numbers import days_between
from app.templating import (
    KINDS,
    PAID_STATUS,
    Amount,
    Days,
    Section,
    Words,
    amount,
    amount_cells,
    date_cells,
    kind_label,
    overdue_mark,
    paid_badge,
    paid_label,
    record_number,
    vat_text,
)
from app.totals import income_amounts, rate_and_forints
from app.upstream.incomes import ACCOUNTING_DOCUMENT, STORNO_INVOICE_TYPE, is_reversed

ACCOUNTING_STATUS = {"not_processed": _l("Not processed"), "processed": _l("Processed"),
                     "booked": _l("Booked")}
# A cancelled document says how it was cancelled: reversed by a storno document, or directly.
CANCEL_STATES = {"reversed": _l("Reversed"), "cancelled": _l("Cancelled")}
STORNO = STORNO_INVOICE_TYPE  # invoice_type 1, as the API marks a storno
AMOUNT_FIELDS = ("net_amount", "vat_amount", "gross_amount")


def review_state(income: dict) -> str | None:
    """'to_review', 'reviewed' or None for an income that never needed review."""
    if income.get("review_done"):
        return "reviewed"
    return "to_review" if income.get("needs_review") else None


def is_storno(income: dict) -> bool:
    """True for a storno document (invoice_type 1)."""
    return income.get("invoice_type") == STORNO


def cancel_state(income: dict, reversed_numbers: set[str]) -> str | None:
    """'reversed' (a storno names it), 'cancelled' (cancelled directly) or None (neither)."""
    if not income.get("is_cancelled"):
        return None
    return "reversed" if is_reversed(income, reversed_numbers) else "cancelled"


def cancel_label(state: str | None) -> str:
    """The words for a cancel state ('' for a live document)."""
    return str(CANCEL_STATES[state]) if state else ""


def can_storno(income: dict) -> bool:
    """A storno can be made of a live accounting document that is not itself a storno."""
    return (income.get("type") == ACCOUNTING_DOCUMENT and not is_storno(income)
            and not income.get("is_cancelled"))


OVERVIEW = {
    "document": ("issued_at", "fulfilled_at", "due_at", "secondary_id", "vat_area", "source"),
    "partner": ("partner_name", "partner_tax_number", "partner_zip_code", "partner_city",
                "partner_address", "partner_country", "partner_account_number"),
    "amounts": ("exchange_rate", "exchange_date"),
    "payment": ("payment_method", "planned_payment_date", "paid_through"),
    "accounting": ("ledger_number", "accounting_period_start", "accounting_period_end",
                   "accounting_id", "vat_period_type", "vat_period_started_at",
                   "vat_period_ended_at"),
}
ALWAYS = ("revenue_type", "net_amount", "vat_amount", "gross_amount")
EXTRA_LABELS = {"source": _l("Source"), "vat_period_ended_at": _l("VAT period end")}


def sections(income: dict, catalogs: dict, settings: dict) -> list[Section]:
    """The detail's field groups; empty fields left out, accounting only when it applies."""
    result = []
    for group, names in OVERVIEW.items():
        if group == "accounting" and not _accounting_applies(income, settings):
            continue
        if group == "amounts" and not _foreign(income, settings):
            continue
        rows = [(field_label(name, EXTRA_LABELS),
                 display_text(_spec(name), income.get(name), income, catalogs))
                for name in names if truthy(income.get(name)) or _switched_on(name, settings)]
        if group == "amounts" and _foreign(income, settings):
            rows.insert(0, (field_label("currency", EXTRA_LABELS),
                            currency_code(income.get("currency"), catalogs) or ""))
        if rows:
            result.append(Section(group_label(group), rows))
    return result


def _switched_on(name: str, settings: dict) -> bool:
    """Fields a company setting turns on are shown even while empty."""
    if name == "accounting_id":
        return bool(settings.get("enable_accounting_id"))
    return name.startswith("vat_period") and bool(settings.get("enable_vat_period"))


def _spec(name: str):
    if name == "ledger_number":
        return spec_for("ledger_number_id")
    if name == "vat_period_ended_at":
        return spec_for("vat_period_started_at")
    return spec_for(name)


def _accounting_applies(income: dict, settings: dict) -> bool:
    names = OVERVIEW["accounting"]
    return bool(settings.get("enable_accounting_id") or settings.get("enable_vat_period")
                or any(truthy(income.get(name)) for name in names))


def _foreign(income: dict, settings: dict) -> bool:
    currency = income.get("currency") or {}
    code = currency.get("code") if isinstance(currency, dict) else None
    return bool(code and code != settings.get("default_currency_name"))


def assignment_columns(rows: list[dict]) -> list:
    """Assignment columns worth showing: type and amounts always, the rest when filled."""
    specs = [spec_for(name) for name in INCOME_ASSIGNMENT_FIELDS]
    return [spec for spec in specs if spec.name in ALWAYS
            or any(truthy(row.get(spec.name)) for row in rows)]


def cell(spec, row: dict, income: dict, catalogs: dict) -> str:
    """One assignment cell as text (VAT with its percent)."""
    value = row.get(spec.name)
    if spec.name == "vat" and isinstance(value, dict):
        return vat_text(value)
    return display_text(spec, value, income, catalogs)


@dataclass(slots=True)
class Row:
    """One income as the list shows it."""

    id: int
    number: str
    kind: str
    partner: str
    tax_number: str | None
    dates: tuple[str, str, str]
    overdue: bool
    amounts: tuple[Amount, Amount, Amount]
    cancelled: str  # "" for a live document, else "Reversed" or "Cancelled"
    paid: tuple[str, str]
    review: tuple[str, str] | None
    storno_of: str | None = None
    days_overdue: int | None = None
    tags: list[str] = field(default_factory=list)
    date_cells: Markup = Markup("")  # the date cells, built once in Python
    amount_cells: Markup = Markup("")


def list_rows(items: list[dict], codes: dict, tag_names: dict, today: str,
              reversed_numbers: frozenset[str] = frozenset()) -> list[Row]:
    """Rows for the income table: every label and format worked out once per page.

    reversed_numbers: the numbers a storno names (app.incomes.flow.reversed_numbers).
    """
    words = Words(kinds=KINDS, paid=PAID_STATUS, to_review=_("To review"),
                  reviewed=_("Reviewed"), overdue=overdue_mark(_("Overdue")))
    days = Days(words.locale)
    return [_row(income, codes, tag_names, today, words, days, reversed_numbers)
            for income in items]


def _row(income: dict, codes: dict, tag_names: dict, today: str, words: Words,
         days: Days, reversed_numbers: frozenset[str]) -> Row:
    code = codes.get(income.get("currency"))
    due = income.get("due_at")
    status = income.get("paid_status")
    overdue = status != 2 and not income.get("is_cancelled") and bool(due) and due < today
    dates = (days[income.get("issued_at")], days[income.get("fulfilled_at")], days[due])
    amounts = tuple(amount(income.get(name), code, words.locale) for name in AMOUNT_FIELDS)
    return Row(
        id=income["id"], number=record_number(income),
        kind=words["kinds"].get(income.get("type"), str(income.get("type") or "")),
        partner=income.get("partner_name") or "—", tax_number=income.get("partner_tax_number"),
        dates=dates, overdue=overdue, amounts=amounts,
        cancelled=cancel_label(cancel_state(income, reversed_numbers)),
        paid=(words["paid"].get(status, str(status or "")), paid_badge(status)),
        review=_review(income, words),
        storno_of=(income.get("referred_invoice_number") or "?")
        if is_storno(income) else None,
        tags=[tag_names.get(tag, f"#{tag}") for tag in income.get("tags") or []],
        days_overdue=days_between(due, today) if overdue else None,
        date_cells=date_cells(dates, overdue, words["overdue"]),
        amount_cells=amount_cells(amounts))


def _review(income: dict, words: Words) -> tuple[str, str] | None:
    state = review_state(income)
    if state is None:
        return None
    return (words[state], "attention" if state == "to_review" else "ok")


def export_header() -> list[str]:
    """Column titles."""
    return [_("Invoice number"), _("Income type"), _("Storno"), _("Partner"), _("Tax number"),
            _("Issue date"), _("Fulfilment date"), _("Due date"), _("Net amount"),
            _("VAT amount"), _("Gross amount"), _("Currency"), _("Payment"),
            _("Cancelled or reversed"), _("Needs review"), _("Tags"), _("Exchange rate"),
            _("Gross in forints")]


def export_row(income: dict, lookups: dict) -> list:
    """One income as export cells (dates as dates, amounts as numbers)."""
    tags = lookups.get("tags", {})
    yes, no = _("Yes"), _("No")
    return [income.get("invoice_number") or "", kind_label(income.get("type")),
            yes if income.get("invoice_type") == 1 else no, income.get("partner_name") or "",
            show_tax_number(income.get("partner_tax_number")), day(income.get("issued_at")),
            day(income.get("fulfilled_at")), day(income.get("due_at")),
            csv_amount(income.get("net_amount")),
            csv_amount(income.get("vat_amount")),
            csv_amount(income.get("gross_amount")),
            lookups.get("codes", {}).get(income.get("currency"), ""),
            paid_label(income.get("paid_status")),
            cancel_label(cancel_state(income, lookups.get("reversed", set()))) or no,
            yes if income.get("needs_review") and not income.get("review_done") else no,
            ", ".join(tags.get(t, str(t)) for t in income.get("tags") or []),
            *rate_and_forints(income, lookups.get("codes", {}).get(income.get("currency")),
                              income_amounts)]

