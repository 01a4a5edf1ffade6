"""Payload-shaped values of a record: what undo sends back, and whether a value still stands.

The review log keeps, per income, the values an action sent (after) and the values they
replaced (before), both in the shape of a PATCH body, so undo can send `before` as it is.
`after` also holds the document's state the action left it in (STATE_KEYS, never in
`before`): undo checks it and never sends it.
"""
from __future__ import annotations

from typing import Any

from app.review.compare import amount, ref

ROW_KEYS = ("revenue_type", "net_amount", "vat_amount", "gross_amount", "vat", "tags",
            "job_number", "ledger_number_id", "vat_ledger_number_id",
            "company_vat_category_id")
ROW_AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
TAG_LISTS = ("tags", "simple_tags")
STATE_KEYS = ("is_cancelled",)


def payload_value(record: dict, key: str) -> Any:
    """The record's value of key as a PATCH body carries it (ids for references)."""
    if key == "assignments":
        return [payload_row(row) for row in record.get("assignments") or []]
    if key in TAG_LISTS:
        return [ref(tag) for tag in record.get(key) or []]
    value = record.get(key)
    return ref(value) if isinstance(value, dict) else value


def payload_row(row: dict) -> dict:
    """An assignment as the update takes it (every column, references as ids, no row id)."""
    out = {key: ref(row.get(key)) for key in ROW_KEYS if key != "tags"}
    out["tags"] = [ref(tag) for tag in row.get("tags") or []]
    return out


def state(record: dict | None) -> dict:
    """The document state an action leaves an income in (cancelled or reversed, or not)."""
    return {"is_cancelled": bool((record or {}).get("is_cancelled"))}


def before_values(record: dict, body: dict) -> dict:
    """What the record held for every key of a PATCH body."""
    return {key: payload_value(record, key) for key in body}


def stands(key: str, sent: Any, record: dict) -> bool:
    """True when the record still holds the value an action sent for key."""
    current = payload_value(record, key)
    if key == "assignments":
        return _rows_same(sent or [], current)
    if key in TAG_LISTS:
        return sorted(sent or []) == sorted(current)
    return _scalar(sent) == _scalar(current)


def _rows_same(sent: list, current: list) -> bool:
    if len(sent) != len(current):
        return False
    for mine, theirs in zip(sent, current, strict=True):
        for key, value in mine.items():
            if key != "id" and not _cell_same(key, value, theirs.get(key)):
                return False
    return True


def _cell_same(key: str, mine: Any, theirs: Any) -> bool:
    if key == "tags":
        return sorted(ref(t) for t in mine or []) == sorted(ref(t) for t in theirs or [])
    if key in ROW_AMOUNTS:
        return amount(mine) == amount(theirs)
    return _scalar(ref(mine)) == _scalar(ref(theirs))


def _scalar(value: Any) -> Any:
    if value in (None, ""):
        return None
    return amount(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else value
