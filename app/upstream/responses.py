"""Turning a final upstream response into decoded JSON or a typed error, and reading the
records in a decoded body whose keys differ between the spec and the live service.

- Artifact records name their expense or income `id` in the spec and `expense_id` /
  `income_id` live (upstream-notes, "Live shapes").
- Creating an expense answers the new record (spec, multipart) or `{"processed": [ids]}` (live).
- Ids may arrive as numbers or as digit strings; they compare as integers.

List envelopes are read in every shape by app/upstream/pagination.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import orjson
import requests

from .bodies import error_for, read_body, redact
from .errors import RateLimited, Unavailable, UpstreamError
from .retry import retry_after_seconds

MAX_FILE_BYTES = 20 * 1024 * 1024
OWNER_KEYS = ("id", "expense_id", "income_id")


class Target(NamedTuple):
    """What a call asked for: method, path (no query) and the path as it may be logged."""

    method: str
    path: str
    loggable: str


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


def error_from(response: requests.Response, target: Target, secret: str) -> UpstreamError:
    """The typed error for a failed response, with ``secret`` scrubbed from body and text."""
    body = redact(read_body(response.text), secret)
    error = error_for(
        response.status_code, body, method=target.method, path=target.path,
        request_id=response.headers.get("X-Request-Id"),
    )
    if isinstance(error, RateLimited):
        error.retry_after = retry_after_seconds(response.headers)
    error.args = (redact(error.message, secret),)
    return error


def unavailable(exc: requests.RequestException, target: Target) -> Unavailable:
    """Unavailable for a transport failure, cut loose from the request that holds the token."""
    exc.request = None
    kind = "timed out" if isinstance(exc, requests.Timeout) else "connection failed"
    return Unavailable(
        f"upstream {kind} on {target.method} {target.path} ({type(exc).__name__})",
        method=target.method, path=target.path,
    )


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
