"""The two list envelopes: page numbers (/1/) and cursors (/2/).

Bad paging parameters behave as in Django REST Framework, which the notes say to follow where
they are silent: a page that is not a positive whole number, or past the last, is 404 "Invalid
page."; a page_size that is not one gives the default size; a cursor that cannot be read is 404
"Invalid cursor"."""
from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from flask import request
from sqlalchemy import Select, func, select

from sandbox.core.db import db
from sandbox.core.errors import ApiError

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 1000


def page_size() -> int:
    """The requested page_size, at most MAX_PAGE_SIZE; the default when it is not a size."""
    size = _positive_int("page_size")
    return min(size, MAX_PAGE_SIZE) if size else DEFAULT_PAGE_SIZE


def page_number_page(stmt: Select, build: Callable[[list], Any]) -> dict:
    """Run stmt for ?page=N and wrap build(rows) as {count, next, previous, results}."""
    size = page_size()
    page = _positive_int("page") if request.args.get("page") else 1
    if page is None:
        raise ApiError(404, "Invalid page.")
    count = db().scalar(select(func.count()).select_from(stmt.order_by(None).subquery()))
    rows = list(db().scalars(stmt.limit(size).offset((page - 1) * size)).unique())
    if page > 1 and not rows:
        raise ApiError(404, "Invalid page.")
    has_next = page * size < count
    return {"count": count,
            "next": _link(page=page + 1) if has_next else None,
            "previous": _link(page=page - 1) if page > 1 else None,
            "results": build(rows)}


def cursor_page(stmt: Select, id_column, build: Callable[[list], Any]) -> dict:
    """Keyset pagination by descending id: {next, previous, results}, no count."""
    size = page_size()
    cursor = _decode_cursor(request.args.get("cursor"))
    direction, anchor = cursor if cursor else ("n", None)
    if anchor is not None:
        stmt = stmt.where(id_column < anchor if direction == "n" else id_column > anchor)
    order = id_column.desc() if direction == "n" else id_column.asc()
    rows = list(db().scalars(stmt.order_by(order).limit(size + 1)).unique())
    more = len(rows) > size
    rows = rows[:size]
    if direction == "p":
        rows.reverse()
    ids = [r.id for r in rows]
    has_next = (more if direction == "n" else anchor is not None) and ids
    has_prev = (anchor is not None if direction == "n" else more) and ids
    return {"next": _link(cursor=_encode_cursor("n", ids[-1])) if has_next else None,
            "previous": _link(cursor=_encode_cursor("p", ids[0])) if has_prev else None,
            "results": build(rows)}


def _positive_int(name: str) -> int | None:
    raw = request.args.get(name) or ""
    return int(raw) if raw.isascii() and raw.isdecimal() and int(raw) > 0 else None


def _link(**changes: Any) -> str:
    args = request.args.to_dict(flat=False)  # repeated keys stay repeated in the links
    args.update({k: [str(v)] for k, v in changes.items()})
    if "cursor" in changes:
        args.pop("page", None)
    return f"{request.base_url}?{urlencode(args, doseq=True)}"


def _encode_cursor(direction: str, anchor: int) -> str:
    return base64.urlsafe_b64encode(f"{direction}:{anchor}".encode()).decode()


def _decode_cursor(raw: str | None) -> tuple[str, int] | None:
    if not raw:
        return None
    try:
        direction, anchor = base64.urlsafe_b64decode(raw.encode()).decode().split(":")
        if direction not in ("n", "p"):
            raise ValueError(direction)
        return direction, int(anchor)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(404, "Invalid cursor") from None
