"""What the detail page shows, prepared from the record through the shared field registry."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from app.forms import INCOME_ASSIGNMENT_FIELDS, display_text, spec_for
from app.forms.display import currency_code, truthy
from app.forms.registry import group_label
from app.numbers import format_number

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


@dataclass
class Section:
    """A titled list of (label, text) pairs."""

    title: Any
    rows: list[tuple[Any, str]] = field(default_factory=list)


def sections(income: dict, catalogs: dict, settings: dict) -> list[Section]:
    """The detail's field groups; empty fields left out, accounting only when it applies."""
    result = []
    for group, names in OVERVIEW.items():
        if group == "accounting" and not _accounting_applies(income, settings):
            continue
        if group == "amounts" and not _foreign(income, settings):
            continue
        rows = [(_label(name), display_text(_spec(name), income.get(name), income, catalogs))
                for name in names if truthy(income.get(name)) or _switched_on(name, settings)]
        if group == "amounts" and _foreign(income, settings):
            rows.insert(0, (_label("currency"), currency_code(income, catalogs) or ""))
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


def _label(name: str):
    return EXTRA_LABELS.get(name) or spec_for(name).label


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
        percent = value.get("percent")
        name = value.get("name") or ""
        return name if percent is None or format_number(percent) in name else \
            f"{name} ({format_number(percent)} %)"
    return display_text(spec, value, income, catalogs)
