"""Reading successful upstream responses: bodies, list pages, files, created ids.

Turning a final upstream response into decoded JSON (a failed one into its typed error, which
app/upstream/errors.py builds), and reading the records in a decoded body whose keys differ
between the spec and the live service.

- Artifact records name their expense or income `id` in the spec and `expense_id` /
  `income_id` live (docs/sandbox-operations.md lists both keys).
- Creating an expense answers the new record (spec, multipart) or `{"processed": [ids]}` (live).
- Ids may arrive as numbers or as digit strings; they compare as integers.

List envelopes, in every shape the upstream uses, are reduced to one Page (`parse_page`). A
page of incomes or expenses is held to the filters its rows show (`within_filter`): the service
passes over a filter it does not know, and a list read so would be wrong in count and totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson
import requests

from .errors import FilterIgnored, NotFound, Target, Unavailable, error_from, unavailable

MAX_FILE_BYTES = 20 * 1024 * 1024
OWNER_KEYS = ("id", "expense_id", "income_id")


def decode(response: requests.Response, target: Target, secret: str) -> Any:
    """The JSON body of a 2xx response (None when empty); raises the typed error otherwise."""
    request_id = response.headers.get("X-Request-Id")
    if not 200 <= response.status_code < 300:
        raise error_from(response, target, secret)
    if response.status_code == 204 or not response.content.strip():
        return None
    try:
        return _json(response)
    except ValueError:
        raise Unavailable(
            f"malformed body from {target.method} {target.path}",
            status=response.status_code, request_id=request_id,
            method=target.method, path=target.path,
        ) from None


def _json(response: requests.Response) -> Any:
    # orjson reads a 100-income page in a third of the stdlib's time; it takes UTF-8 bytes only,
    # so a body in another declared charset goes the stdlib way.
    try:
        return orjson.loads(response.content)
    except orjson.JSONDecodeError:
        if (response.encoding or "utf-8").lower().replace("_", "-") in ("utf-8", "utf8"):
            raise
        return response.json()


def read_file(response: requests.Response, target: Target, secret: str) -> tuple[bytes, str]:
    """The body and content type of a streamed 200 file response; the typed error otherwise."""
    with response:
        if response.status_code != 200:
            raise error_from(response, target, secret)
        chunks, size = [], 0
        try:
            for chunk in response.iter_content(64 * 1024):
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_FILE_BYTES:
                    raise Unavailable("file larger than the proxy allows", method="GET",
                                      path=target.path)
        except requests.RequestException as exc:
            raise unavailable(exc, target) from None
    return b"".join(chunks), response.headers.get("Content-Type", "application/octet-stream")


def as_id(value: Any) -> int | None:
    """An id sent as a number or a digit string; None for anything else (booleans too)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    return None


def ref(value: Any) -> Any:
    """The id inside a reference (object or plain id)."""
    return value.get("id") if isinstance(value, dict) else value


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


LABEL_KEYS = ("name", "code", "iso_code", "label", "title")
# The list filters a row shows, each under its own key. A row without the key is not judged.
ROW_FILTERS = ("paid_status", "type", "invoice_type", "is_cancelled", "needs_review",
               "review_done")
DAY_FIELDS = ("issued_at", "fulfilled_at", "due_at")
BOOLEAN_WORDS = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false",
                 "off": "false"}


@dataclass(frozen=True)
class Page:
    """One page of a list: records, total count (None for cursor lists), links, lookups;
    every record of the filter too, when Bookdesk read it through to page it itself."""

    items: list[Any]
    count: int | None = None
    next: str | None = None
    previous: str | None = None
    lookups: dict[str, dict[Any, str]] = field(default_factory=dict)
    whole: list[Any] | None = None

    @property
    def next_cursor(self) -> str | None:
        """The cursor inside the `next` link of a cursor list (pages build their own links)."""
        return _cursor(self.next)

    @property
    def previous_cursor(self) -> str | None:
        """The cursor inside the `previous` link of a cursor list."""
        return _cursor(self.previous)


def page_of(items: list[Any], number: int, size: int, **fields: Any) -> Page:
    """Page `number` of a list Bookdesk holds whole, its links page numbers as the API's are;
    a page past the end is NotFound, as the API answers it (fields: Page's lookups, whole)."""
    start = (number - 1) * size
    if number > 1 and start >= len(items):
        raise NotFound("page past the end of the list")
    return Page(items=items[start:start + size], count=len(items),
                next=f"?page={number + 1}" if start + size < len(items) else None,
                previous=f"?page={number - 1}" if number > 1 else None, **fields)


def _cursor(link: str | None) -> str | None:
    values = parse_qs(urlsplit(link).query).get("cursor") if link else None
    return values[0] if values else None


class MalformedPage(ValueError):
    """The body is not a list envelope the client knows."""


def resource_from_path(path: str) -> str:
    """Guess the records key from a path: ``/2/expense-types/`` -> ``expense_types``."""
    segments = [s for s in urlsplit(path).path.split("/") if s and not s.isdigit()]
    return segments[-1].replace("-", "_") if segments else ""


def parse_page(body: Any, resource: str) -> Page:
    """Read a bare list, a flat ``results`` list, ``results.<resource>`` or ``<resource>``."""
    if isinstance(body, list):
        return Page(items=body, count=len(body))
    if not isinstance(body, dict):
        raise MalformedPage(f"list body is {type(body).__name__}")
    results = body.get("results")
    if isinstance(results, list):
        items, tables = results, {}
    elif isinstance(results, dict):
        items, tables = _split(results, resource)
    elif resource in body:
        items, tables = _split(body, resource)
    else:
        raise MalformedPage(f"no results and no {resource!r} key in the list body")
    return Page(
        items=items,
        count=_count(body.get("count")),
        next=body.get("next") or None,
        previous=body.get("previous") or None,
        lookups={name: id_names(table) for name, table in tables.items()},
    )


def within_filter(page: Page, params: Mapping[str, Any] | None) -> Page:
    """The page, when each of its rows fits the filters it was read with (those a row shows:
    ROW_FILTERS, and a day range over DAY_FIELDS); FilterIgnored otherwise."""
    params = params or {}
    for name in ROW_FILTERS:
        wanted = _wanted(params.get(name))
        if wanted and _outside(page.items, name, wanted):
            raise FilterIgnored(name)
    if params.get("date_field") in DAY_FIELDS and _out_of_days(page.items, params):
        raise FilterIgnored(params["date_field"])
    return page


def _word(value: Any) -> str:
    # As the API reads a value: 1/yes/on are true, 0/no/off false (1 and 0 stay apart from 2, 3).
    text = str(value).strip().lower()
    return BOOLEAN_WORDS.get(text, text)


def _wanted(value: Any) -> set[str]:
    """A filter's values as the API reads them (repeated keys or a comma list); empty when
    it narrows nothing."""
    if value is None:
        return set()
    items = value if isinstance(value, list | tuple | set) else [value]
    return {_word(part) for item in items for part in str(_word(item)).split(",")} - {""}


def _outside(items: list, name: str, wanted: set[str]) -> bool:
    return any(isinstance(row, dict) and row.get(name) is not None
               and _word(row[name]) not in wanted for row in items)


def _out_of_days(items: list, params: Mapping[str, Any]) -> bool:
    start, end = (str(params.get(key) or "") for key in ("from_date", "to_date"))
    if len(start) > 10 or len(end) > 10:  # a moment, read in the API's zone: not judged here
        return False
    days = [str(row.get(params["date_field"]))[:10] for row in items
            if isinstance(row, dict) and row.get(params["date_field"])]
    return any((start and day < start) or (end and day > end) for day in days)


def _split(container: dict[str, Any], resource: str) -> tuple[list[Any], dict[str, list]]:
    records = container.get(resource)
    if not isinstance(records, list):
        raise MalformedPage(f"{resource!r} is missing from the results object")
    tables = {
        key: value
        for key, value in container.items()
        if key != resource and isinstance(value, list) and all(_is_ref(v) for v in value)
    }
    return records, tables


def _is_ref(value: Any) -> bool:
    return isinstance(value, dict) and "id" in value


def _count(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def label(item: dict[str, Any]) -> str:
    """A catalogue entry's display name: name, else code, else its id."""
    for key in LABEL_KEYS:
        if item.get(key) not in (None, ""):
            return str(item[key])
    return str(item.get("id", ""))


def id_names(items: list[dict[str, Any]], key: str | None = None) -> dict[Any, str]:
    """Map ``{id: name}`` from a list of ``{id, name}`` entries (``key`` picks the field)."""
    return {
        item["id"]: (str(item.get(key, "")) if key else label(item))
        for item in items
        if isinstance(item, dict) and "id" in item
    }
