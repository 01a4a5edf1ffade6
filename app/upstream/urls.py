"""Building request URLs and query strings, and their loggable form."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

_SECRET_PARAM = re.compile(
    r"token|secret|password|passwd|signature|^sig$|key|auth|credential", re.I
)


def join(base_url: str, path: str) -> str:
    """Absolute URL for ``path`` under ``base_url``; absolute links are re-rooted there."""
    base = base_url.rstrip("/")
    parts = urlsplit(path)
    if parts.scheme or parts.netloc:
        # A link from the upstream (``next``) goes back to the configured origin only:
        # the token never travels to a host or scheme the upstream names.
        path = _relative_to(base, parts.path) + (f"?{parts.query}" if parts.query else "")
    return f"{base}/{path.lstrip('/')}"


def _relative_to(base: str, path: str) -> str:
    prefix = urlsplit(base).path.rstrip("/")
    if prefix and (path == prefix or path.startswith(prefix + "/")):
        return path[len(prefix):]
    return path


def clean_params(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Params as the API reads them: booleans as true/false, dates ISO 8601, None dropped."""
    if not params:
        return None
    return {key: _value(value) for key, value in params.items() if value is not None}


def _value(value: Any) -> Any:
    if isinstance(value, list | tuple | set):
        return [_value(item) for item in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def loggable(url_or_path: str, params: Mapping[str, Any] | None = None) -> str:
    """Path and query for logs, with values of secret-looking parameters masked."""
    parts = urlsplit(url_or_path)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    for key, value in (params or {}).items():
        values = value if isinstance(value, list | tuple) else [value]
        pairs.extend((key, str(v)) for v in values if v is not None)
    masked = [(k, "***" if _SECRET_PARAM.search(k) else v) for k, v in pairs]
    return parts.path + (f"?{urlencode(masked)}" if masked else "")


def path_only(url_or_path: str) -> str:
    """The path of a URL or of a path with a query string."""
    return urlsplit(url_or_path).path
