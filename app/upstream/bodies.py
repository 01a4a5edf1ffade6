"""Tolerant reading of upstream error bodies and the one status -> error class map."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from .errors import (
    AuthenticationError,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamError,
    ValidationError,
)

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
