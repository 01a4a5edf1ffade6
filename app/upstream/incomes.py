"""The incomes resource: every /1/incomes and /2/incomes path and its artifacts. Plain
functions taking the client first."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

from app.upstream.responses import find_artifact, within_filter

LIST = "/1/incomes"
DETAIL = "/1/incomes/{id}/"
CREATE = "/2/incomes/create/"
UPDATE = "/2/incomes/{id}/update/"
ARTIFACTS = "/1/artifacts/income/"
RESOURCE = "incomes"
SINCE_PAGE_SIZE = 200
STORNO_INVOICE_TYPE = 1
ACCOUNTING_DOCUMENT = 2  # the income `type` of an accounting document (spec 2.2)
STORNO_PAGE = 200
COUNT_ROWS = 20
# Bookdesk's own filter, never sent: leave out void documents (cancelled, no storno naming
# them). No API filter expresses it, so the list reads the filter through (not_void_params).
NOT_VOID = "not_void"


def list_page(client, params: dict):
    """One page of incomes (a Page) for these GET /1/incomes parameters, its rows held to
    the filters they show (FilterIgnored when the service passed one over)."""
    return within_filter(client.page(LIST, params, resource=RESOURCE), params)


def count(client, params: dict) -> int:
    """How many incomes the filter holds: its first COUNT_ROWS rows read, not one, so that
    rows outside a filter the service passed over are seen (within_filter)."""
    return list_page(client, {**params, "page": 1, "page_size": COUNT_ROWS}).count


def iter_pages(client, params: dict):
    """Every page of the filtered list, one after another (the CSV export), held as
    list_page holds one."""
    return (within_filter(page, params)
            for page in client.iter_pages(LIST, params, resource=RESOURCE))


def iter_all(client, params: dict):
    """Every income the filter finds, page after page."""
    return (item for page in iter_pages(client, params) for item in page.items)


def get(client, income_id: int, fields: str | None = None) -> dict:
    """One income; fields= names the expansions (items, payment_history, accounting)."""
    return client.get(DETAIL.format(id=income_id), {"fields": fields} if fields else None)


# Run as (client, income_id) once an update went out, answered or not: a copy of the income
# kept elsewhere (the review queue's read-ahead, app/review/prefetch.py) is stale now.
ON_UPDATE: list[Callable[[Any, int], None]] = []


def update(client, income_id: int, body: dict, fields: str | None = None) -> dict:
    """PATCH the income; the answer has the detail's shape (with fields= expansions)."""
    query = f"?fields={fields}" if fields else ""
    try:
        return client.patch(UPDATE.format(id=income_id) + query, json=body)
    finally:
        for drop in ON_UPDATE:
            drop(client, income_id)


def create(client, body: dict, image: tuple[str, bytes, str] | None = None) -> dict:
    """POST a new income, as JSON or (with an image) multipart with a `data` part."""
    if image is None:
        return client.post(CREATE, json=body)
    return client.post(CREATE, data={"data": json.dumps(body)}, files={"invoice_image": image})


def artifact(client, income_id: int) -> dict | None:
    """The artifact record of an income when it has a file (signed, expiring url)."""
    return find_artifact(client.get(ARTIFACTS, {"ids": income_id}), income_id)


def fulfilled_between(client, start, end, page_size: int = 100):
    """Every income whose fulfilment day is from start to end (inclusive), page after page."""
    return iter_all(client, {"date_field": "fulfilled_at", "from_date": start.isoformat(),
                             "to_date": end.isoformat(), "page_size": page_size})


def storno_references(client) -> set[str]:
    """The invoice numbers the company's live storno documents name (the documents they
    reverse); a cancelled storno reverses nothing. Read once a request, however many of its
    figures and labels ask."""
    return client.read_once("storno_references", lambda: _named_by_stornos(client))


def _named_by_stornos(client) -> set[str]:
    # invoice_type narrows the read where the API filters by it; the check below decides, so
    # this read is not held to its filter.
    stornos = client.iter_all(LIST, {"invoice_type": STORNO_INVOICE_TYPE,
                                     "page_size": STORNO_PAGE}, resource=RESOURCE)
    return {item.get("referred_invoice_number") for item in stornos
            if item.get("invoice_type") == STORNO_INVOICE_TYPE
            and not item.get("is_cancelled")} - {None}


def without_void(client, records: list[dict]) -> list[dict]:
    """The records less the void ones: cancelled with no live storno naming them. A document
    a storno reverses stays; the storno's negative amounts net it out."""
    if not any(record.get("is_cancelled") for record in records):
        return records
    named = storno_references(client)
    return [record for record in records if not is_void(record, named)]


def reversible(record: dict) -> bool:
    """Whether a storno may have reversed the record: a cancelled accounting document (the
    only kind a storno cancels, spec part 3), itself no storno."""
    return (bool(record.get("is_cancelled")) and record.get("type") == ACCOUNTING_DOCUMENT
            and record.get("invoice_type") != STORNO_INVOICE_TYPE)


def is_reversed(record: dict, named: set[str] | None) -> bool:
    """Whether a storno reverses the record: reversible, and a live storno names its number
    (named: storno_references)."""
    return reversible(record) and record.get("invoice_number") in (named or ())


def is_void(record: dict, named: set[str] | None) -> bool:
    """Whether the record is cancelled and no storno reverses it."""
    return bool(record.get("is_cancelled")) and not is_reversed(record, named)


def not_void_params(params: dict) -> tuple[dict, bool]:
    """(the parameters to send, whether Bookdesk leaves void documents out itself)."""
    sent = {key: value for key, value in params.items() if key != NOT_VOID}
    return sent, bool(params.get(NOT_VOID))


def issued_since(client, since: date, limit: int) -> tuple[list, bool]:
    """Incomes issued since the date, newest first, SINCE_PAGE_SIZE a page; (at most limit
    incomes, whether more were left). The policy editor's preview runs over these."""
    params = {"date_field": "issued_at", "from_date": since.isoformat(),
              "page_size": SINCE_PAGE_SIZE, "ordering": "-issued_at"}
    found = []
    for page in iter_pages(client, params):
        found.extend(page.items)
        if len(found) >= limit:
            return found[:limit], True
    return found, False
