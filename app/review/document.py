"""The income's document image, served from Bookdesk's own origin.

The CSP allows images from 'self' only, and the upstream hands out signed links on its own
host, so an image is fetched here and passed on. The link is token-free: no Authorization header
is ever sent with it. Only PNG and JPEG (checked by their bytes) are passed on; a PDF or XML
document is opened through the incomes area's download route instead (a top-level navigation,
which the CSP does not restrict).

This is the one place outside app/upstream that makes an HTTP request; it uses the upstream
package's pooled session. It belongs in app/upstream (a shared `fetch_signed`) once the
expenses area needs the same.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from app.incomes.images import sniff
from app.upstream.session import get_session

IMAGE_TYPES = ("image/png", "image/jpeg")
IMAGE_EXTENSIONS = ("png", "jpg", "jpeg")
MAX_BYTES = 10 * 1024 * 1024
TIMEOUT = (3.05, 15)


@dataclass(frozen=True)
class Document:
    """What the review screen says about an income's file."""

    kind: str  # "image", "file" (PDF, XML: opened in a new tab) or "none"
    filename: str | None = None
    extension: str | None = None


def describe(artifact: dict | None) -> Document:
    """How the screen shows the file of an artifact record."""
    if not artifact or not artifact.get("has_artifact"):
        return Document("none")
    extension = (artifact.get("extension") or "").lower().lstrip(".")
    kind = "image" if extension in IMAGE_EXTENSIONS else "file"
    return Document(kind, artifact.get("filename"), extension or None)


def fetch_image(url: str) -> tuple[bytes, str] | None:
    """(bytes, content type) of an image behind a signed link; None for anything else."""
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    response = get_session().get(url, timeout=TIMEOUT, stream=True, allow_redirects=False)
    try:
        if response.status_code != 200:
            return None
        content = response.raw.read(MAX_BYTES + 1, decode_content=True)
    finally:
        response.close()
    kind = sniff(content)
    if len(content) > MAX_BYTES or kind not in IMAGE_TYPES:
        return None
    return content, kind
