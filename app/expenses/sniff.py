"""What an uploaded or downloaded file really is, by its first bytes, whatever its name says.

The same test the upstream applies to uploads (spec 4.3): PDF, PNG, JPEG, or XML with a root
element (HTML is not XML for this purpose).
"""
from __future__ import annotations

import re

PDF, PNG, JPEG, XML = "pdf", "png", "jpg", "xml"
CONTENT_TYPES = {PDF: "application/pdf", PNG: "image/png", JPEG: "image/jpeg",
                 XML: "application/xml"}
NAMED = {"pdf": PDF, "png": PNG, "jpg": JPEG, "jpeg": JPEG, "jpe": JPEG, "xml": XML}
INLINE = (PDF, PNG, JPEG)
ROOT_ELEMENT = re.compile(rb"<[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.\-]*)?[\s/>]")
PROLOGUE = (b"<!--", b"<!DOCTYPE", b"<!doctype")


def sniff(data: bytes) -> str | None:
    """pdf, png, jpg or xml when the content really is one, else None."""
    if not data:
        return None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if data.lstrip().startswith(b"%PDF-"):
        return PDF
    return XML if _is_xml(data[:4096]) else None


def _is_xml(head: bytes) -> bool:
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<?xml"):
        return True
    while head.startswith(PROLOGUE):
        closing = b"-->" if head.startswith(b"<!--") else b">"
        end = head.find(closing)
        if end < 0:
            return False
        head = head[end + len(closing):].lstrip()
    match = ROOT_ELEMENT.match(head)
    return bool(match) and head[1:match.end() - 1].lower() != b"html"


def claimed(filename: str | None) -> str | None:
    """The kind a filename's extension claims, or None."""
    if not filename or "." not in filename:
        return None
    return NAMED.get(filename.rsplit(".", 1)[1].lower())


def content_type(kind: str | None) -> str:
    """The content type of a sniffed kind; octet-stream for anything else."""
    return CONTENT_TYPES.get(kind or "", "application/octet-stream")
