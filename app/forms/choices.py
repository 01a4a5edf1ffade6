"""Select options from catalogues (cached lists) and from the record's own reference objects."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from app.forms.registry import FieldSpec

EMPTY_CHOICE = ("", "—")
NEEDED = {"tags": "tags", "revenue_types": "revenue_types", "expense_types": "expense_types",
          "vat_categories": "vat_categories", "ledger_numbers": "ledger_numbers",
          "currencies": "currencies"}


def catalog_names(specs) -> list[str]:
    """The catalogues a set of specs chooses from (load them once, in parallel)."""
    names = {spec.catalog.split(":")[0] for spec in specs if spec.catalog}
    return sorted(name for name in names if name in NEEDED)


def entry_label(catalog: str, item: dict) -> str:
    """How a catalogue entry is named in a select."""
    if catalog == "currencies":
        return str(item.get("code") or item.get("name") or item.get("id"))
    if catalog == "ledger_numbers" and item.get("code"):
        return f"{item['code']} – {item.get('name') or ''}".strip(" –")
    if catalog == "vat_categories" and item.get("vat_area") not in (None, "HU"):
        return f"{item.get('name')} ({item['vat_area']})"
    return str(item.get("name") or item.get("code") or item.get("id"))


def catalog_choices(spec: FieldSpec, catalogs: dict[str, list]) -> list[tuple[str, str]]:
    """(value, label) pairs for a reference field; static choices as they are."""
    if spec.choices:
        return [(str(value), label) for value, label in spec.choices]
    if not spec.catalog:
        return []
    name, _sep, only_type = spec.catalog.partition(":")
    items = [item for item in catalogs.get(name) or []
             if not only_type or item.get("type") in (None, only_type)]
    return [(str(item["id"]), entry_label(name, item)) for item in items if "id" in item]


def with_current(choices: list, value: Any, label: Any) -> list:
    """Keep a record's current value selectable even when the catalogue lacks it."""
    if value in (None, "", []):
        return choices
    known = {key for key, _label in choices}
    values = value if isinstance(value, list) else [value]
    labels = label if isinstance(label, list) else [label]
    extra = [(str(v), str(lab or _l("#%(id)s", id=v))) for v, lab in zip(values, labels,
                                                                           strict=False)
             if str(v) not in known]
    return choices + extra


def ref_label(value: Any) -> Any:
    """The name carried by a detail record's reference object ({id, name|code})."""
    if isinstance(value, list):
        return [ref_label(item) for item in value]
    if isinstance(value, dict):
        return value.get("name") or value.get("code")
    return None
