"""What the reviewer saw, in a form that compares across shapes, and what changed since.

The upstream has no version field or conditional write (spec 4.2), so "has someone changed this
income since I looked" is answered by comparing values: the view of a record as shown (posted
back with the form) against the record the API returns. List and detail records compare alike:
references become ids, amounts normalised decimals, tag lists sorted. Review flags are left out:
they are what the reviewer changes.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from app.forms import spec_for
from app.numbers import to_decimal

SCALARS = ("invoice_number", "partner_name", "partner_tax_number", "issued_at", "fulfilled_at",
           "due_at", "vat_area", "is_cancelled")
AMOUNTS = ("net_amount", "vat_amount", "gross_amount", "exchange_rate")
ROW_REFS = ("revenue_type", "vat", "ledger_number_id")
ROW_AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
LIST_KEYS = (*SCALARS, *AMOUNTS, "partner", "currency", "tags", "assignments")
SCREEN_KEYS = (*LIST_KEYS, "note")
EXTRA_LABELS = {"partner": _l("Partner"), "assignments": _l("Revenue categorisation")}


@dataclass(frozen=True)
class Change:
    """One field that differs: its key, label, and the two values as text."""

    key: str
    label: Any
    before: str
    after: str


def view(record: dict, keys: tuple[str, ...] = SCREEN_KEYS) -> dict:
    """The comparable values of a record (list or detail shape)."""
    out: dict[str, Any] = {}
    for key in keys:
        out[key] = _value(key, record)
    return out


def _value(key: str, record: dict) -> Any:
    if key == "partner":
        return ref(record.get("partner_id", record.get("partner")))
    if key == "currency":
        return ref(record.get("currency"))
    if key == "tags":
        return sorted(ref(tag) for tag in record.get("tags") or [])
    if key == "assignments":
        return [_row(row) for row in record.get("assignments") or []]
    if key in AMOUNTS:
        return amount(record.get(key))
    return _text(record.get(key)) if key != "is_cancelled" else bool(record.get(key))


def _row(row: dict) -> dict:
    out = {key: ref(row.get(key)) for key in ROW_REFS}
    out.update({key: amount(row.get(key)) for key in ROW_AMOUNTS})
    out["tags"] = sorted(ref(tag) for tag in row.get("tags") or [])
    out["job_number"] = _text(row.get("job_number"))
    return out


def ref(value: Any) -> Any:
    """The id inside a reference (object or plain id)."""
    return value.get("id") if isinstance(value, dict) else value


def amount(value: Any) -> str | None:
    """A decimal as plain text without trailing zeros ("1270.00" and "1270" compare equal)."""
    if value in (None, ""):
        return None
    number = to_decimal(value)
    return str(value) if number is None else format(number.normalize(), "f")


def _text(value: Any) -> Any:
    return None if value in (None, "") else str(value)[:5000]


def fingerprint(record: dict, keys: tuple[str, ...] = LIST_KEYS) -> str:
    """A short hash of the comparable view (for list rows, which post many at once)."""
    data = json.dumps(view(record, keys), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def encode(seen: dict) -> str:
    """The view as compact JSON for a hidden input."""
    return json.dumps(seen, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decode(text: str | None) -> dict | None:
    """The posted view, or None when missing or not a view."""
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def changes(seen: dict, record: dict, names: dict) -> list[Change]:
    """The fields whose value in record differs from what the reviewer saw."""
    now = view(record, tuple(seen))
    return [Change(key, label(key), describe(key, seen.get(key), names),
                   describe(key, now[key], names))
            for key in now if now[key] != seen.get(key)]


def label(key: str) -> Any:
    """The field's label from the registry."""
    return EXTRA_LABELS.get(key) or spec_for(key).label


def describe(key: str, value: Any, names: dict) -> str:
    """A value as short text, with names for ids (names: {catalogue: {id: name}})."""
    if value in (None, "", []):
        return "—"
    if key == "tags":
        return ", ".join(names.get("tags", {}).get(v, f"#{v}") for v in value)
    if key == "currency":
        return names.get("currencies", {}).get(value, f"#{value}")
    if key == "assignments":
        return "; ".join(_row_text(row, names) for row in value) or "—"
    if isinstance(value, bool):
        return str(_l("Yes") if value else _l("No"))
    return str(value)


def _row_text(row: dict, names: dict) -> str:
    kind = names.get("revenue_types", {}).get(row.get("revenue_type")) or str(
        _l("no revenue type"))
    tags = ", ".join(names.get("tags", {}).get(t, f"#{t}") for t in row.get("tags") or [])
    job = row.get("job_number")
    return " · ".join(p for p in (kind, row.get("gross_amount") or "", tags, job) if p)
