"""Safe defaults: CSRF, security headers, request ids, and log records that never carry a token."""
from __future__ import annotations

import logging
import re
import uuid

from flask import Flask, g, has_request_context, request, session
from flask.logging import default_handler
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
REQUEST_ID_HEADER = "X-Request-Id"
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
_TOKEN_PATTERN = re.compile(r"(Token|Bearer)(\s+|%20|\+)[^\s'\",;&]+", re.IGNORECASE)


def init_app(app: Flask) -> None:
    """Install CSRF protection, the request id and the response headers."""
    csrf.init_app(app)
    app.before_request(_assign_request_id)
    app.after_request(_add_headers)
    app.jinja_env.globals["request_id"] = request_id


def request_id() -> str:
    """The current request's id ('-' outside a request)."""
    if not has_request_context():
        return "-"
    if "request_id" not in g:
        g.request_id = _incoming_request_id() or uuid.uuid4().hex
    return g.request_id


def _incoming_request_id() -> str | None:
    value = request.headers.get(REQUEST_ID_HEADER, "")
    return value if _SAFE_REQUEST_ID.match(value) else None


def _assign_request_id() -> None:
    request_id()


def _add_headers(response):
    headers = response.headers
    headers[REQUEST_ID_HEADER] = request_id()
    headers.setdefault("Content-Security-Policy", CSP)
    headers["X-Content-Type-Options"] = "nosniff"
    headers.setdefault("X-Frame-Options", "DENY")
    headers["Referrer-Policy"] = "same-origin"
    if request.is_secure:
        headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains"
    if request.endpoint != "static":
        response.vary.update(("HX-Request", "Cookie"))
        if _signed_in():
            headers["Cache-Control"] = "no-store"
    return response


def _signed_in() -> bool:
    return bool(session.get("companies"))


def redact(text: str) -> str:
    """Replace anything that looks like `Token <value>` with a placeholder."""
    return _TOKEN_PATTERN.sub(r"\1 [redacted]", text)


def init_logging(app: Flask) -> None:
    """Give every log record a request id and scrub tokens from it (process-wide, once)."""
    factory = logging.getLogRecordFactory()
    if not getattr(factory, "_bookdesk", False):
        logging.setLogRecordFactory(_wrap_factory(factory))
    default_handler.setFormatter(logging.Formatter(LOG_FORMAT))


LOG_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"


def _wrap_factory(factory):
    def make_record(*args, **kwargs):
        record = factory(*args, **kwargs)
        record.request_id = request_id() if has_request_context() else "-"
        _scrub(record)
        return record

    make_record._bookdesk = True
    return make_record


def _scrub(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a malformed record must still be logged
        return
    cleaned = redact(message)
    if cleaned != message:
        record.msg, record.args = cleaned, None
