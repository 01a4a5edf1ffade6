"""What the list and the detail show, prepared from the record (amounts from the assignments,
references with id, name and code)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l

from app.expenses.labels import source_label
from app.forms import EXPENSE_ASSIGNMENT_FIELDS, display_text, spec_for
from app.forms.display import truthy
from app.forms.registry import group_label
from app.numbers import format_datetime, format_number, to_decimal

AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
REFERENCES = ("ledger_number", "vat_ledger_number", "company_vat_category")
OVERVIEW = {
    "document": ("filing_number", "invoice_number", "secondary_id", "issued_at", "fulfilled_at",
                 "due_at", "vat_area", "source", "created_at", "updated_at"),
    "amounts": ("currency", "exchange_rate"),
    "payment": ("payment_method",),
}
EXTRA_LABELS = {"filing_number": _l("Filing number"), "source": _l("Source"),
                "created_at": _l("Created"), "updated_at": _l("Last changed")}
TIMESTAMPS = ("created_at", "updated_at")


@dataclass
class Section:
    """A titled list of (label, text) pairs."""

    title: Any
    rows: list[tuple[Any, str]] = field(default_factory=list)


def _amount(value) -> Decimal:
    return to_decimal(value) or Decimal(0)


def totals(expense: dict) -> dict[str, Decimal]:
    """Net, VAT and gross summed over the assignments (the top-level amounts may be 0)."""
    rows = expense.get("assignments") or []
    if not rows:
        return {name: _amount(expense.get(name)) for name in AMOUNTS}
    return {name: sum((_amount(row.get(name)) for row in rows), Decimal(0)) for name in AMOUNTS}


def sections(expense: dict, catalogs: dict, settings: dict) -> list[Section]:
    """The detail's field groups; empty fields (and the rate of the home currency) left out."""
    result = []
    for group, names in OVERVIEW.items():
        rows = [(_label(name), _text(name, expense, catalogs)) for name in names
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


def _label(name: str):
    return EXTRA_LABELS.get(name) or spec_for(name).label


def _text(name: str, expense: dict, catalogs: dict) -> str:
    if name in TIMESTAMPS:
        return format_datetime(expense.get(name))
    if name == "source":
        return source_label(expense.get(name))
    if name == "currency" and isinstance(expense.get(name), dict):
        currency = expense[name]
        return f"{currency.get('code')} – {currency.get('name')}"
    return display_text(spec_for(name), expense.get(name), expense, catalogs)


def assignment_columns(rows: list[dict], advanced: bool) -> list:
    """Columns worth showing: type and amounts always, the rest when some row has a value."""
    specs = [spec_for(name) for name in EXPENSE_ASSIGNMENT_FIELDS]
    always = ("expense_type", *AMOUNTS, "vat")
    return [spec for spec in specs if spec.name in always
            or any(truthy(row.get(spec.name)) for row in rows)
            or (advanced and spec.name in REFERENCES)]


def vat_text(value: Any) -> str:
    """A VAT object as its name with the percent (a float since spec 9.5)."""
    if not isinstance(value, dict):
        return "—" if value in (None, "") else f"#{value}"
    name, percent = value.get("name") or "", value.get("percent")
    if percent is None or format_number(percent) in name:
        return name or f"#{value.get('id')}"
    return f"{name} ({format_number(percent)} %)".strip()


def cell(spec, row: dict, expense: dict, catalogs: dict) -> str:
    """One assignment cell as text (references and VAT as the detail's objects say)."""
    value = row.get(spec.name)
    if spec.name == "vat":
        return vat_text(value)
    if spec.name == "expense_type" and isinstance(value, dict):
        return value.get("name") or f"#{value.get('id')}"
    return display_text(spec, value, expense, catalogs)
