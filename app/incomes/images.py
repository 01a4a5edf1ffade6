"""The optional invoice image of a new document: checked by content before it is sent."""
from __future__ import annotations

from flask_babel import gettext as _

SIGNATURES = ((b"%PDF", "application/pdf"), (b"\x89PNG\r\n\x1a\n", "image/png"),
              (b"\xff\xd8\xff", "image/jpeg"), (b"<?xml", "application/xml"))
MAX_BYTES = 10 * 1024 * 1024


def sniff(content: bytes) -> str | None:
    """The content type by the file's first bytes (PDF, PNG, JPEG, XML), else None."""
    head = content.lstrip(b"\xef\xbb\xbf \t\r\n")[:16]
    return next((kind for magic, kind in SIGNATURES if head.startswith(magic)), None)


def read_image(upload) -> tuple[tuple[str, bytes, str] | None, list[str]]:
    """(filename, bytes, content type) of an uploaded file, or the reason it is refused."""
    if upload is None or not upload.filename:
        return None, []
    content = upload.read(MAX_BYTES + 1)
    if len(content) > MAX_BYTES:
        return None, [_("The file is larger than 10 MB.")]
    kind = sniff(content)
    if not content or kind is None:
        return None, [_("The file must be a PDF, JPEG, PNG or XML document.")]
    return (upload.filename, content, kind), []
