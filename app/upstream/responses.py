"""Reading upstream responses: bodies, typed errors, list pages, files, created ids.

Turning a final upstream response into decoded JSON or a typed error, and reading the
records in a decoded body whose keys differ between the spec and the live service.

- Artifact records name their expense or income `id` in the spec and `expense_id` /
  `income_id` live (docs/sandbox-operations.md lists both keys).
- Creating an expense answers the new record (spec, multipart) or `{"processed": [ids]}` (live).
- Ids may arrive as numbers or as digit strings; they compare as integers.

Upstream error bodies are read tolerantly, and one map turns a status into its error class.
List envelopes, in every shape the upstream uses, are reduced to one Page (`parse_page`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import orjson
import requests
from flask_babel import lazy_gettext as _l

from .errors import (
    AuthenticationError,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamError,
    ValidationError,
    WriteRefused,
)

MAX_FILE_BYTES = 20 * 1024 * 1024
# A write refused for the token's role (the same words as the 403 page, app/errors.py).
REFUSED_WRITE = _l("The accounting service refused this action for your token. Your role in this "
                   "company may not allow it (for example, a viewer cannot change records).")
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




MAX_TEXT = 2000
OBJECT_KEYS = ("non_field_errors", "detail", "_error", "error")
_EXTRA_KEY = re.compile(r"^existing_|_fields$|^fields$")
_TWO_FACTOR = re.compile(r"two[- ]?factor|2fa|2-step|two[- ]step|kétlépcsős|kétfaktoros", re.I)
_AUTH_FAILURE = re.compile(
    r"invalid token|token (is )?(invalid|inactive|expired|revoked|deleted)|credentials"
    r"|not authenticated|authentication (failed|required)|érvénytelen token|hitelesítés",
    re.I,
)


def read_body(text: str) -> Any:
    """Parse a body tolerantly: JSON when it parses, else text (HTML reduced to words)."""
    stripped = (text or "").strip()
    if not stripped:
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    if stripped.startswith("<"):
        return _html_text(stripped)
    return stripped[:MAX_TEXT]


def _html_text(markup: str) -> str:
    title = re.search(r"<title[^>]*>(.*?)</title>", markup, re.I | re.S)
    if title and title.group(1).strip():
        return html.unescape(title.group(1).strip())[:MAX_TEXT]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", markup, flags=re.I | re.S)
    words = " ".join(re.sub(r"<[^>]+>", " ", body).split())
    return html.unescape(words)[:MAX_TEXT]


def detail_text(body: Any) -> str:
    """The main human-readable message of a body, or an empty string."""
    if isinstance(body, str):
        return body
    if isinstance(body, list):
        return next((detail_text(item) for item in body if detail_text(item)), "")
    if isinstance(body, dict):
        for key in (*OBJECT_KEYS, "message"):
            if body.get(key):
                return detail_text(body[key])
        fields, _, _ = split_validation(body)
        return next((f"{key}: {msgs[0]}" for key, msgs in fields.items() if msgs), "")
    return "" if body is None else str(body)


def split_validation(body: Any) -> tuple[dict[str, list[str]], list[str], dict[str, Any]]:
    """Split a 400 body into (field_errors, non_field_errors, extra)."""
    fields: dict[str, list[str]] = {}
    general: list[str] = []
    extra: dict[str, Any] = {}
    if isinstance(body, dict):
        for key, value in body.items():
            if key in OBJECT_KEYS:
                general.extend(_messages(value))
            elif _EXTRA_KEY.search(key) or not _is_messages(value):
                extra[key] = value
            else:
                _flatten(key, value, fields)
    elif body is not None:
        general.extend(_messages(body))
    return fields, general, extra


def _is_messages(value: Any) -> bool:
    if isinstance(value, str | dict):
        return True
    return isinstance(value, list) and all(isinstance(v, str | dict | list) for v in value)


def _messages(value: Any) -> list[str]:
    if isinstance(value, list):
        return [m for item in value for m in _messages(item)]
    if isinstance(value, dict):
        return [f"{k}: {m}" for k, v in value.items() for m in _messages(v)]
    return [] if value in (None, "") else [str(value)]


def _flatten(prefix: str, value: Any, out: dict[str, list[str]]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}", item, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                _flatten(f"{prefix}.{index}", item, out)
            else:
                out.setdefault(prefix, []).append(str(item))
    elif value not in (None, ""):
        out.setdefault(prefix, []).append(str(value))


def error_for(status: int, body: Any, **context: Any) -> UpstreamError:
    """Build the typed error for a non-success status (context: method, path, request_id)."""
    detail = detail_text(body)
    where = f"{context.get('method', '')} {context.get('path', '')}".strip()
    message = f"upstream {status} on {where}" + (f": {detail[:300]}" if detail else "")
    kwargs = {"status": status, "body": body, **context}
    if status == 400:
        fields, general, extra = split_validation(body)
        return ValidationError(
            message, field_errors=fields, non_field_errors=general, extra=extra, **kwargs
        )
    if status == 401:
        return AuthenticationError(message, **kwargs)
    if status == 403:
        return _forbidden(detail, message, kwargs)
    if status == 404:
        return NotFound(message, **kwargs)
    if status == 429:
        return RateLimited(message, **kwargs)
    if status >= 500:
        return Unavailable(message, **kwargs)
    return UpstreamError(message, **kwargs)


def _forbidden(detail: str, message: str, kwargs: dict[str, Any]) -> UpstreamError:
    if _TWO_FACTOR.search(detail):
        return PermissionDenied(message, two_factor=True, **kwargs)
    if _AUTH_FAILURE.search(detail):
        return AuthenticationError(message, **kwargs)
    if kwargs.get("method", "GET") != "GET":
        return WriteRefused(message, non_field_errors=[REFUSED_WRITE], **kwargs)
    return PermissionDenied(message, **kwargs)


def redact(value: Any, secret: str) -> Any:
    """Replace every occurrence of ``secret`` inside strings of a parsed body."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, "***")
    if isinstance(value, list):
        return [redact(item, secret) for item in value]
    if isinstance(value, dict):
        return {redact(k, secret): redact(v, secret) for k, v in value.items()}
    return value




LABEL_KEYS = ("name", "code", "iso_code", "label", "title")


@dataclass(frozen=True)
class Page:
    """One page of a list: records, total count (None for cursor lists), links, lookups."""

    items: list[Any]
    count: int | None = None
    next: str | None = None
    previous: str | None = None
    lookups: dict[str, dict[Any, str]] = field(default_factory=dict)


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


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Retry-After as seconds (delta or HTTP date), or None when absent or unreadable."""
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
