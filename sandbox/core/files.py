"""Signed, expiring, token-free download URLs for stored files, and the loaders behind them.

Any area may hand out links: `signed_url("document", 7, "scan.pdf")`, after registering how to
load its files with `register_loader("document", load)`. The route `/_files/<kind>/<id>`
(sandbox/documents/routes.py) checks the signature and expiry, then serves the bytes without
any token.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from flask import current_app, request
from sqlalchemy.orm import Session

from sandbox.core.errors import ApiError, not_found
from sandbox.core.filesniff import content_type

DEFAULT_TTL_SECONDS = 900
SECRET_EXT = "sandbox_file_secret"  # noqa: S105 (an extensions key, not a secret)
TTL_KEY = "sandbox_file_ttl"


@dataclass
class StoredFile:
    """Bytes of a file with the name it was stored under."""

    data: bytes
    filename: str
    content_type: str | None = None


Loader = Callable[[Session, int], StoredFile | None]
LOADERS: dict[str, Loader] = {}


def register_loader(kind: str, loader: Loader) -> None:
    """Teach the download route how to load files of one kind (expense, income, document...)."""
    LOADERS[kind] = loader


def url_ttl() -> int:
    """Seconds a new link stays valid (changeable through /_sandbox/ for tests)."""
    return current_app.extensions.get(TTL_KEY, DEFAULT_TTL_SECONDS)


def set_url_ttl(seconds: int | None) -> None:
    """Change the lifetime of links handed out from now on; None restores the default."""
    current_app.extensions[TTL_KEY] = seconds or DEFAULT_TTL_SECONDS


def signed_url(kind: str, record_id: int, filename: str | None = None) -> tuple[str, int]:
    """An absolute, token-free download URL for a record's file and its expiry (unix time)."""
    # Rounded up, so a link lives at least its whole lifetime, never a fraction of a second less.
    expires = math.ceil(time.time()) + url_ttl()
    query = urlencode({"expires": expires, "sig": signature(kind, record_id, expires)})
    name = f"/{quote(filename, safe='')}" if filename else ""
    return f"{request.host_url.rstrip('/')}/_files/{kind}/{record_id}{name}?{query}", expires


def signature(kind: str, record_id: int, expires: int) -> str:
    """HMAC-SHA256 over kind, id and expiry with the app's secret."""
    message = f"{kind}\n{record_id}\n{expires}".encode()
    return hmac.new(_secret(), message, hashlib.sha256).hexdigest()


def verify(kind: str, record_id: int, expires_raw: str | None, sig: str | None) -> None:
    """Raise 403 for a bad or expired link; return quietly for a good one."""
    if not expires_raw or not expires_raw.isdecimal() or not sig:
        raise ApiError(403, "Invalid or missing signature.")
    if not hmac.compare_digest(signature(kind, record_id, int(expires_raw)), sig):
        raise ApiError(403, "Invalid or missing signature.")
    if int(expires_raw) < time.time():
        raise ApiError(403, "This download link has expired.")


def load(session: Session, kind: str, record_id: int) -> StoredFile:
    """The stored file behind a verified link, with its content type settled; 404 when gone."""
    loader = LOADERS.get(kind)
    stored = loader(session, record_id) if loader else None
    if stored is None:
        raise not_found()
    stored.content_type = stored.content_type or content_type(stored.filename, stored.data)
    return stored


def _secret() -> bytes:
    # One random secret per app: links die with the process, as pre-signed links should.
    return current_app.extensions.setdefault(SECRET_EXT, secrets.token_bytes(32))
