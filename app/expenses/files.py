"""Serving an expense's artifact same-origin: the page can frame a PDF or show an image under
the strict CSP, and the browser never sees the upstream's signed link."""
from __future__ import annotations

from urllib.parse import quote

from flask import Response

from app.expenses.sniff import INLINE, claimed, content_type, sniff

# A framed PDF may be shown by this page only; nothing in it may load or run anything else.
FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; " \
           "frame-ancestors 'self'; base-uri 'none'; form-action 'none'"


def inline_kind(expense: dict) -> str | None:
    """pdf, png or jpg when the detail can show the artifact inline, else None."""
    kind = claimed("x." + str(expense.get("artifact_extension") or ""))
    return kind if expense.get("has_artifact") and kind in INLINE else None


def file_response(content: bytes, filename: str | None, download: bool) -> Response:
    """The file with its sniffed type; inline only for PDF and images (never XML or unknown)."""
    kind = sniff(content)
    name = _name(filename, kind)
    mode = "inline" if kind in INLINE and not download else "attachment"
    response = Response(content, content_type=content_type(kind))
    response.headers["Content-Disposition"] = disposition(mode, name)
    response.headers["Content-Security-Policy"] = FILE_CSP
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _name(filename: str | None, kind: str | None) -> str:
    name = (filename or "").replace("/", "_").replace("\\", "_").strip() or "artifact"
    if kind and claimed(name) != kind:
        name = f"{name}.{kind}"
    return name


def disposition(mode: str, filename: str) -> str:
    """A Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266)."""
    fallback = filename.encode("ascii", "replace").decode().replace('"', "").replace("?", "_")
    fallback = "".join(ch for ch in fallback if 32 <= ord(ch) < 127)
    return f"{mode}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
