"""The only door to the upstream API: client, typed errors, pagination, accounting (parallel.py).

Modules: client (URLs, sessions, headers, timeouts, retries), responses (successful answers),
errors (typed errors), parallel (reads side by side, Server-Timing), oauth (the authorization
server), catalog (catalogues, documents and ScopedCache), incomes, expenses, partners,
company, taxes, bank (these six: one upstream resource each).
"""

from __future__ import annotations

from flask import current_app

from . import catalog
from .client import DEFAULT_COMPANY_HEADER, UpstreamClient
from .errors import (
    AuthenticationError,
    NeedsApiToken,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamError,
    ValidationError,
    WriteRefused,
)
from .parallel import Call, CallStats, current_stats, init_app, run_parallel, run_until
from .responses import Page, id_names

__all__ = [
    "AuthenticationError",
    "Call",
    "CallStats",
    "NeedsApiToken",
    "NotFound",
    "Page",
    "PermissionDenied",
    "RateLimited",
    "Unavailable",
    "UpstreamClient",
    "UpstreamError",
    "ValidationError",
    "WriteRefused",
    "catalog",
    "current_stats",
    "id_names",
    "init_app",
    "make_client",
    "run_parallel",
    "run_until",
]


def make_client(company_id: int | str | None, token: str,
                scheme: str = "Token") -> UpstreamClient:
    """A client for the current request, configured from current_app.config (scheme "Bearer"
    for an OAuth2 access token)."""
    config = current_app.config
    base_url = config.get("UPSTREAM_URL")
    if not base_url:
        raise RuntimeError("UPSTREAM_URL is not configured")
    return UpstreamClient(
        base_url,
        token,
        company_id,
        company_header=config.get("COMPANY_HEADER") or DEFAULT_COMPANY_HEADER,
        connect_timeout=float(config.get("UPSTREAM_CONNECT_TIMEOUT", 3.05)),
        read_timeout=float(config.get("UPSTREAM_READ_TIMEOUT", 15)),
        retries=int(config.get("UPSTREAM_RETRIES", 3)),
        backoff=float(config.get("UPSTREAM_BACKOFF", 0.3)),
        max_retry_after=float(config.get("UPSTREAM_MAX_RETRY_AFTER", 5)),
        stats=current_stats(),
        catalog_ttl=float(config.get("CATALOG_TTL", 60)),
        auth_scheme=scheme,
    )
