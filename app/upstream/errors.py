"""Typed upstream errors: every failed call ends as one of these classes."""

from __future__ import annotations

from typing import Any


class UpstreamError(Exception):
    """Base class of every failed upstream call."""

    default_message = "upstream request failed"

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = None,
        body: Any = None,
        request_id: str | None = None,
        method: str | None = None,
        path: str | None = None,
    ) -> None:
        self.status = status
        self.body = body
        self.request_id = request_id
        self.method = method
        self.path = path
        super().__init__(message or self.default_message)

    @property
    def message(self) -> str:
        """The human-readable message (English, for logs)."""
        return str(self.args[0])

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, method={self.method!r}, "
            f"path={self.path!r}, request_id={self.request_id!r}, message={self.message!r})"
        )


class ValidationError(UpstreamError):
    """400: field errors, object-level errors and extra keys of the body."""

    default_message = "upstream rejected the request"

    def __init__(
        self,
        message: str | None = None,
        *,
        field_errors: dict[str, list[str]] | None = None,
        non_field_errors: list[str] | None = None,
        extra: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.field_errors = field_errors or {}
        self.non_field_errors = non_field_errors or []
        self.extra = extra or {}
        super().__init__(message, **kwargs)

    def item_errors(self, field: str) -> dict[int | str, dict[str, list[str]]]:
        """Errors of a list field per item: ``{1: {"revenue_type": [...]}}``."""
        items: dict[int | str, dict[str, list[str]]] = {}
        prefix = field + "."
        for key, messages in self.field_errors.items():
            if not key.startswith(prefix):
                continue
            index, _, rest = key[len(prefix):].partition(".")
            slot = int(index) if index.isdigit() else index
            items.setdefault(slot, {})[rest or "non_field_errors"] = messages
        return items

    def messages(self) -> list[str]:
        """Every message, object-level first, for showing above a form."""
        flat = list(self.non_field_errors)
        for key, messages in self.field_errors.items():
            flat.extend(f"{key}: {message}" for message in messages)
        return flat


class AuthenticationError(UpstreamError):
    """401 (or a 403 about the token): the sign-in for this company is gone."""

    default_message = "upstream authentication failed"


class PermissionDenied(UpstreamError):
    """403: the token may not do this; ``two_factor`` when 2FA is the reason."""

    default_message = "upstream permission denied"

    def __init__(self, message: str | None = None, *, two_factor: bool = False, **kwargs: Any):
        self.two_factor = two_factor
        super().__init__(message, **kwargs)


class NeedsApiToken(PermissionDenied):
    """The path takes no OAuth2 Bearer token (the API takes Bearer on /2/ only): not sent."""

    default_message = "this path takes an API token, not an OAuth2 access token"


class WriteRefused(PermissionDenied, ValidationError):
    """403 on a write: the token's role may not change this. Also a ValidationError, so every
    form that shows the upstream's refusals shows this one the same way, with the input kept;
    its one message is Bookdesk's own, in the page's language."""


class NotFound(UpstreamError):
    """404: the record does not exist (or not for this company)."""

    default_message = "upstream record not found"


class RateLimited(UpstreamError):
    """429 after retries; ``retry_after`` in seconds when the upstream said."""

    default_message = "upstream rate limit reached"

    def __init__(self, message: str | None = None, *, retry_after: float | None = None, **kwargs):
        self.retry_after = retry_after
        super().__init__(message, **kwargs)


class Unavailable(UpstreamError):
    """Connection error, timeout, 5xx after retries, or a malformed success body."""

    default_message = "upstream unavailable"
