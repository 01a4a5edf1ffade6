"""When to send a request again, and how long to wait first."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import requests
from requests.exceptions import SSLError
from urllib3.exceptions import NewConnectionError

RETRY_STATUSES = frozenset({429, 502, 503, 504})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def never_sent(exc: BaseException) -> bool:
    """True when the request failed before any byte could reach the server."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    if isinstance(exc, requests.ConnectionError) and not isinstance(exc, SSLError):
        # requests wraps urllib3's MaxRetryError; its reason tells a refused connect apart.
        reason = getattr(exc.args[0], "reason", None) if exc.args else None
        return isinstance(reason, NewConnectionError)
    return False


def transient(exc: BaseException) -> bool:
    """True for failures a GET may simply try again."""
    if isinstance(exc, SSLError):
        return False
    return isinstance(
        exc, requests.ConnectionError | requests.Timeout | requests.exceptions.ChunkedEncodingError
    )


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


@dataclass(frozen=True)
class RetryPolicy:
    """Retry budget: ``retries`` extra attempts, exponential backoff with jitter."""

    retries: int = 3
    backoff: float = 0.3
    max_retry_after: float = 5.0

    def backoff_delay(self, attempt: int) -> float:
        """Delay before retry number ``attempt + 1``: half to full of backoff * 2**attempt."""
        base = min(self.backoff * (2**attempt), self.max_retry_after)
        return random.uniform(base / 2, base)

    def after_exception(self, method: str, exc: BaseException, attempt: int) -> float | None:
        """Seconds to wait before trying again after ``exc``, or None to give up."""
        if attempt >= self.retries:
            return None
        if never_sent(exc) or (method in SAFE_METHODS and transient(exc)):
            return self.backoff_delay(attempt)
        return None

    def after_response(
        self, method: str, status: int, headers: Mapping[str, str], attempt: int
    ) -> float | None:
        """Seconds to wait before trying again after a response, or None to keep it."""
        if attempt >= self.retries or method not in SAFE_METHODS or status not in RETRY_STATUSES:
            return None
        asked = retry_after_seconds(headers)
        if asked is None:
            return self.backoff_delay(attempt)
        # Waiting less than asked only earns another refusal: past the cap, give up now.
        return asked if asked <= self.max_retry_after else None
