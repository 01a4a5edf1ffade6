"""Typed upstream errors: every failed call as one of these classes, how a response becomes one,
and how its message is worded.

A failed response's body is read tolerantly and scrubbed of the token, and one map turns its
status into the error class (error_from, error_for); a transport failure becomes Unavailable.
What an upstream 400 says comes in the page's language (upstream_text, upstream_messages): the
texts of the error table of the accounting service's contract become our translated message,
any other one a translated lead-in with the upstream text as its detail."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, NamedTuple

import requests
from flask_babel import LazyString, _, force_locale
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
     r"\w+ and \w+ must both be set or both null\.",
     _l("Fill in both fields of the pair, or leave both empty.")),
    (r"The accounting period start may not be after its end\.",
     _l("The start may not be after the end of the period.")),
    (r"This expense is already excluded from accounting\.",
     _l("This expense is already excluded from accounting.")),
    (r"A salary with this tax_number already exists in this month\.",
     _l("This tax number already has a salary in this month.")),
    # DRF's number texts, in the words Bookdesk's own checks use for the same rule.
    (r"Ensure that there are no more than (?P<places>\d+) decimal places\.",
     _l("Enter at most %(places)d decimal places.")),
    (r"Ensure that there are no more than (?P<digits>\d+) digits before the decimal point\.",
     _l("Enter at most %(digits)d digits before the decimal mark.")),
    (r"Ensure that there are no more than (?P<digits>\d+) digits in total\.",
     _l("Enter at most %(digits)d digits in all.")),
    (r"Ensure this value is greater than 0\.", _l("Enter a number greater than 0.")),
    (r"Ensure this value is greater than or equal to (?P<minimum>-?\d+)\.",
     _l("Enter at least %(minimum)s.")),
    (r"Ensure this value is less than or equal to (?P<maximum>-?\d+)\.",
     _l("Enter at most %(maximum)s.")),
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
    _l("A valid integer is required."),
    _l("This field may not be null."),
    _l("Not a valid string."),
    _l("Must be a valid boolean."),
    # Why a write or a bulk action was refused for one record (its state changed meanwhile).
    _l("Not editable: the income is booked."),
    _l("The expense is booked."),
    _l("The expense was exported to accounting."),
    _l("The expense is excluded from accounting."),
    _l("The expense is in quarantine; accept it first."),
    _l("The expense is not in quarantine."),
)
# Keys whose values are codes for programs (DRF's error codes), never shown.
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


class FilterIgnored(ValidationError):
    """A list answered with a row outside a filter it was sent (responses.within_filter): the
    service passed the filter over, as it does one it does not know. Its one message is
    Bookdesk's own, shown where the list shows a refused filter."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        self.filter, self.label = name, FILTER_LABELS.get(name, name)
        super().__init__(f"the list answered rows outside its filter {name}", non_field_errors=[
            _l("The accounting service listed records outside the filter “%(filter)s”: a list, "
               "count or total read from that answer would be wrong, so it is not shown.",
               filter=self.label)], **kwargs)


# The list filters FilterIgnored may name, as the filter bands label them.
FILTER_LABELS = {"paid_status": _l("Payment"), "type": _l("Income type"),
                 "invoice_type": _l("Storno"), "is_cancelled": _l("Cancelled"),
                 "needs_review": _l("Review"), "review_done": _l("Review"),
                 "issued_at": _l("Issue date"),
                 "fulfilled_at": _l("Fulfilment date"), "due_at": _l("Due date")}


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
    timed_out = False  # no answer within the read timeout (set by unavailable())

    @property
    def may_still_run(self) -> bool:
        """Whether the upstream may still be working on the request: Bookdesk stopped waiting
        for its answer, or a gateway did (504)."""
        return self.timed_out or self.status == 504


class Target(NamedTuple):
    """What a call asked for: method, path (no query) and the path as it may be logged."""

    method: str
    path: str
    loggable: str


# A write refused for the token's role (the same words as the 403 page, app/errors.py).
REFUSED_WRITE = _l("The accounting service refused this action for your token. Your role in this "
                   "company may not allow it (for example, a viewer cannot change records).")
MAX_TEXT = 2000
OBJECT_KEYS = ("non_field_errors", "detail", "_error", "error")
_EXTRA_KEY = re.compile(r"^existing_|_fields$|^fields$")
_TWO_FACTOR = re.compile(r"two[- ]?factor|2fa|2-step|two[- ]step|kétlépcsős|kétfaktoros", re.I)
_AUTH_FAILURE = re.compile(
    r"invalid token|token (is )?(invalid|inactive|expired|revoked|deleted)|credentials"
    r"|not authenticated|authentication (failed|required)|érvénytelen token|hitelesítés",
    re.I,
)


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
    error = Unavailable(
        f"upstream {kind} on {target.method} {target.path} ({type(exc).__name__})",
        method=target.method, path=target.path,
    )
    error.timed_out = isinstance(exc, requests.ReadTimeout)
    return error


def waited_for(exc: BaseException) -> int:
    """The whole seconds an error's Retry-After asked to wait; 0 when it did not say."""
    return int(getattr(exc, "retry_after", 0) or 0)


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


# What a form says when the upstream refused the data without naming any field or reason.
NOT_ACCEPTED = _l("The accounting service did not accept the data sent.")
FAILURES = (
    (NotFound, _l("The accounting service no longer has this record.")),
    (PermissionDenied, _l("The accounting service does not let your token do this.")),
    (RateLimited, _l("The accounting service asked us to slow down: try again in a minute.")),
    (Unavailable, _l("The accounting service is not available: try again in a moment.")),
)
FAILED = _l("The accounting service could not do this.")


def upstream_text(message) -> str:
    """An upstream 400 text in the page's language: known ones mapped, others with a lead-in."""
    if isinstance(message, LazyString):  # Bookdesk's own message (a refused write), not a 400's
        return str(message)
    text = str(message)
    for pattern, translated in KNOWN_UPSTREAM:
        match = pattern.fullmatch(text.strip())
        if match:
            return str(translated) % _groups(match)
    if _is_bookdesk_text(text):  # DRF's standard texts are Bookdesk msgids too
        return _(text)
    return str(UNKNOWN_LEAD) % {"detail": text}


def _is_bookdesk_text(text: str) -> bool:
    # Every msgid has a Hungarian translation (the English catalogue leaves them as they are).
    with force_locale("hu"):
        return _(text) != text


def _groups(match) -> dict:
    # Digits come as numbers, so one message serves Bookdesk's own check and the upstream's.
    return {key: int(value) if value and value.lstrip("-").isdigit() else value or ""
            for key, value in match.groupdict().items()}


def failure_text(error: UpstreamError) -> str:
    """Why one call of several failed, in the page's language: a 400's own words, else what
    its kind means (a line of a bulk report, beside the others that went through)."""
    if isinstance(error, ValidationError):
        return " ".join(upstream_messages(error)) or str(NOT_ACCEPTED)
    for kind, text in FAILURES:
        if isinstance(error, kind):
            return str(text)
    return str(FAILED)


def upstream_messages(error) -> list[str]:
    """Every message of an upstream ValidationError translated, object-level first."""
    flat = [upstream_text(message) for message in error.non_field_errors]
    for key, messages in error.field_errors.items():
        if key not in MACHINE_KEYS:
            flat.extend(upstream_text(message) for message in messages)
    return flat
