"""Records whose keys differ between the spec and the live service, read in either dialect.

- Artifact records name their expense or income `id` in the spec and `expense_id` /
  `income_id` live (upstream-notes, "Live shapes").
- Creating an expense answers the new record (spec, multipart) or `{"processed": [ids]}` (live).
- Ids may arrive as numbers or as digit strings; they compare as integers.

List envelopes are read in every shape by app/upstream/pagination.py.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

OWNER_KEYS = ("id", "expense_id", "income_id")


def as_id(value: Any) -> int | None:
    """An id sent as a number or a digit string; None for anything else (booleans too)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    return None


def artifact_owner(record: dict) -> int | None:
    """The expense or income an artifact record is about, whichever key names it."""
    for key in OWNER_KEYS:
        if record.get(key) not in (None, ""):
            return as_id(record[key])
    return None


def find_artifact(records: Iterable[Any] | None, owner_id: int) -> dict | None:
    """The artifact record of owner_id when it has a file, else None."""
    return next((record for record in records or () if isinstance(record, dict)
                 and artifact_owner(record) == owner_id and record.get("has_artifact")), None)


def artifact_filenames(records: Iterable[Any] | None) -> dict[int, str | None]:
    """{owner id: file name} of artifact records."""
    return {artifact_owner(record): record.get("filename") for record in records or ()
            if isinstance(record, dict) and artifact_owner(record) is not None}


def created_id(body: Any) -> int | None:
    """The id of a record just created: its `id`, or the first of live's `processed` ids."""
    if not isinstance(body, dict):
        return None
    if body.get("id") is not None:
        return as_id(body["id"])
    processed = body.get("processed")
    if isinstance(processed, list) and processed:
        first = processed[0]
        return as_id(first.get("id") if isinstance(first, dict) else first)
    return None
