"""The upstream's 400 on a bulk write, put on the rows and fields it names.

A list body holds one error object per item sent, in order (DRF's ListSerializer); an object
body speaks about the request as a whole.
"""
from __future__ import annotations

from flask_babel import gettext as _

from app.taxes.labels import column
from app.taxes.rows import Row
from app.upstream import ValidationError

ROW_KEYS = ("non_field_errors", "detail")


def place(exc: ValidationError, sent: list[Row]) -> list[str]:
    """Put per-item messages on their rows; return the messages for above the grid."""
    body = exc.body
    if isinstance(body, list) and len(body) == len(sent):
        for row, problems in zip(sent, body, strict=True):
            _place_item(row, problems)
        if any(row.has_errors for row in sent):
            return []
    return exc.messages() or [_("The accounting service did not accept the data sent.")]


def _place_item(row: Row, problems) -> None:
    if not isinstance(problems, dict):
        row.general.extend(_texts(problems))
        return
    for key, value in problems.items():
        texts = _texts(value)
        if key in ROW_KEYS:
            row.general.extend(texts)
        elif key in row.fields:
            row.errors.setdefault(key, []).extend(texts)
        elif texts and not key.startswith("existing_"):
            row.general.extend(f"{column(key)}: {text}" for text in texts)


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    if isinstance(value, dict):
        return [f"{key}: {text}" for key, item in value.items() for text in _texts(item)]
    return []
