"""Typed upstream errors: every failed call ends as one of these classes; and what an upstream
400 says, in the page's language (upstream_text, upstream_messages): the texts of the error
table of the accounting service's contract become our translated message, any other one a
translated lead-in with the upstream text as its detail."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import LazyString, _
from flask_babel import lazy_gettext as _l

# The upstream texts of the contract's error table (as the accounting service and sandbox/
# write them), matched whole; named groups go into our message.
KNOWN_UPSTREAM = tuple((re.compile(pattern, re.S), message) for pattern, message in (
    (r"Date has wrong format\..*", _l("Date has wrong format: write it as YYYY-MM-DD.")),
    (r"Datetime has wrong format\..*",
     _l("Datetime has wrong format: write it as YYYY-MM-DD or YYYY-MM-DDThh:mm.")),
    (r"updated_since is older than (?P<days>\d+) days.*",
     _l("Changes are kept for %(days)s days only: load the full list again.")),
    (r"Select a valid choice\. (?P<value>.*) is not one of the available choices\.",
     _l("Select a valid choice. %(value)s is not one of the available choices.")),
    (r"\"(?P<value>.*)\" is not a valid choice\.", _l("“%(value)s” is not a valid choice.")),
    (r"An actual exchange rate is required for an income in (?P<code>\w+) \(the company's "
     r"default currency is (?P<default>\w+)\)\.",
     _l("Enter the actual exchange rate: the currency is %(code)s, not %(default)s, the "
        "company's own.")),
    (r"The exchange rate of the company's default currency is 1\.",
     _l("The exchange rate of the company's default currency is 1.")),
    (r"An income with this invoice number already exists\.",
     _l("An income with this invoice number already exists.")),
    (r"This invoice was already imported from this source\.",
     _l("This invoice was already imported from this source.")),
    (r"A partner with this tax number already exists\.",
     _l("A partner with this tax number already exists.")),
    (r"A partner with this name and no tax number already exists\.",
     _l("A partner with this name and no tax number already exists.")),
    (r"The partner is synced from (?P<source>[^;]+); only .*",
     _l("This partner comes from an integration: only the bank account and the customer and "
        "supplier roles can be changed.")),
    (r"The partner is referenced by a booked income; only .*",
     _l("A booked income refers to this partner: only the bank account and the customer and "
        "supplier roles can be changed.")),
    (r"At least one of is_customer and is_vendor must be true\.",
     _l("A partner is a customer, a supplier or both: tick at least one.")),
    (r"Upload a valid PDF, JPEG, PNG or XML file\..*|Not a PDF, JPEG, PNG or XML file\.",
     _l("Upload a valid PDF, JPEG, PNG or XML file. The content of the uploaded file is none of "
        "these, whatever its name says.")),
    (r"The submitted file is empty\.", _l("The submitted file is empty.")),
    (r"The file may be at most (?P<size>\d+) MB\.", _l("The file may be at most %(size)s MB.")),
    (r"Expected a non-empty list of assignment objects\.", _l("This list may not be empty.")),
    (r"\w+ and \w+ must be sent together\.|Required together with \w+\.|"
     r"accounting_period_start and accounting_period_end must both be set or both null\.",
     _l("Fill in both fields of the pair, or leave both empty.")),
    (r"The accounting period start may not be after its end\.",
     _l("The start may not be after the end of the period.")),
    (r"This expense is already excluded from accounting\.",
     _l("This expense is already excluded from accounting.")),
))
# DRF's standard texts the accounting service sends, marked so they are Bookdesk msgids too.
STANDARD_TEXTS = (
    _l("This field may not be blank."),
    _l("This field is required."),
    _l("A tag with this name already exists."),
    _l("A type with this name already exists."),
    _l("Ensure this value is between 0 and 100."),
    _l("Enter a two-letter ISO country code."),
    _l("A valid number is required."),
)
# Keys whose values are codes for programs (e.g. full_resync_required), never shown.
MACHINE_KEYS = ("code",)
UNKNOWN_LEAD = _l("The accounting service did not accept this: %(detail)s")


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


# What a form says when the upstream refused the data without naming any field or reason.
NOT_ACCEPTED = _l("The accounting service did not accept the data sent.")


def upstream_text(message) -> str:
    """An upstream 400 text in the page's language: known ones mapped, others with a lead-in."""
    if isinstance(message, LazyString):  # Bookdesk's own message (a refused write), not a 400's
        return str(message)
    text = str(message)
    for pattern, translated in KNOWN_UPSTREAM:
        match = pattern.fullmatch(text.strip())
        if match:
            return str(translated) % _groups(match)
    standard = _(text)  # DRF's standard texts are Bookdesk msgids too
    return standard if standard != text else str(UNKNOWN_LEAD) % {"detail": text}


def _groups(match) -> dict:
    return {key: value or "" for key, value in match.groupdict().items()}


def upstream_messages(error) -> list[str]:
    """Every message of an upstream ValidationError translated, object-level first."""
    flat = [upstream_text(message) for message in error.non_field_errors]
    for key, messages in error.field_errors.items():
        if key not in MACHINE_KEYS:
            flat.extend(upstream_text(message) for message in messages)
    return flat
