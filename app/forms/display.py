"""Read-only text for a field value: names for references, locale formats for money and dates."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from app.forms.choices import entry_label, ref_label
from app.forms.kinds import ref_id
from app.forms.registry import FieldSpec
from app.identifiers import show_bank_account, show_tax_number
from app.numbers import format_amount, format_date, format_number

EMPTY = "—"


def currency_code(record: dict, catalogs: dict) -> str | None:
    """The record's currency code, from its currency object or the catalogue."""
    currency = record.get("currency")
    if isinstance(currency, dict):
        return currency.get("code") or currency.get("name")
    for item in catalogs.get("currencies") or []:
        if item.get("id") == currency:
            return item.get("code")
    return None


def catalog_name(spec: FieldSpec, value: Any, catalogs: dict) -> str | None:
    """The catalogue's name for an id, if the catalogue has it."""
    name = (spec.catalog or "").split(":")[0]
    for item in catalogs.get(name) or []:
        if item.get("id") == value:
            return entry_label(name, item)
    return None


def _ref_text(spec: FieldSpec, raw: Any, catalogs: dict) -> str:
    label = ref_label(raw)
    try:
        value = ref_id(raw)
    except ValueError:
        return str(raw)
    if value is None:
        return EMPTY
    return catalog_name(spec, value, catalogs) or label or f"#{value}"


def display_text(spec: FieldSpec, raw: Any, record: dict, catalogs: dict) -> str:
    """The value of one field as the read-only form and the detail page show it."""
    if raw in (None, "", []):
        return EMPTY
    kind = spec.kind
    if kind == "ref":
        return _ref_text(spec, raw, catalogs)
    if kind == "refs":
        return ", ".join(_ref_text(spec, item, catalogs) for item in raw) or EMPTY
    if kind == "amount":
        return format_amount(raw, currency_code(record, catalogs) if spec.money else None)
    if kind in ("rate", "percent"):
        return format_number(raw)
    if kind == "date":
        return format_date(raw)
    if kind == "bool":
        return _("Yes") if raw else _("No")
    if kind == "tax_number":
        return show_tax_number(raw)
    if kind == "bank_account":
        return show_bank_account(raw)
    if kind == "choice":
        return next((str(label) for value, label in spec.choices if value == raw), str(raw))
    return str(raw)
