"""Content sniffing: what a file really is, whatever its name says."""
from __future__ import annotations

import re

PDF, PNG, JPEG, XML = "pdf", "png", "jpg", "xml"
CONTENT_TYPES = {PDF: "application/pdf", PNG: "image/png", JPEG: "image/jpeg",
                 XML: "application/xml"}
EXTENSIONS = {"pdf": PDF, "png": PNG, "jpg": JPEG, "jpeg": JPEG, "jpe": JPEG, "xml": XML}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"
BOMS = (b"\xef\xbb\xbf",)
# A root element: "<" then a name start character (so "<!" comments/doctype and "<?" do not count).
ROOT_ELEMENT = re.compile(rb"<[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.\-]*)?[\s/>]")
# HTML opens like an XML root element but is no invoice format.
NOT_XML_ROOTS = (b"html",)


def sniff(data: bytes) -> str | None:
    """The real kind of data: pdf, png, jpg, xml, or None when it is none of them."""
    if not data:
        return None
    if data.startswith(PNG_SIGNATURE):
        return PNG
    if data.startswith(JPEG_SIGNATURE):
        return JPEG
    if data.lstrip().startswith(b"%PDF-"):
        return PDF
    if _looks_like_xml(data):
        return XML
    return None


def _looks_like_xml(data: bytes) -> bool:
    head = data[:4096]
    for bom in BOMS:
        if head.startswith(bom):
            head = head[len(bom):]
    head = head.lstrip()
    if head.startswith(b"<?xml"):
        return True
    return _starts_with_root(head)


def _starts_with_root(head: bytes) -> bool:
    """True when head opens with an element, possibly after comments or a doctype."""
    while head.startswith((b"<!--", b"<!DOCTYPE", b"<!doctype")):
        end = head.find(b"-->" if head.startswith(b"<!--") else b">")
        if end < 0:
            return False
        head = head[end + (3 if head.startswith(b"<!--") else 1):].lstrip()
    match = ROOT_ELEMENT.match(head)
    return bool(match) and head[1:match.end() - 1].lower() not in NOT_XML_ROOTS


def kind_from_name(filename: str | None) -> str | None:
    """The kind a filename's extension claims, or None."""
    if not filename or "." not in filename:
        return None
    return EXTENSIONS.get(filename.rsplit(".", 1)[1].lower())


def content_type(filename: str | None, data: bytes) -> str:
    """Content type by sniffing (the name may lie), else by the name, else octet-stream."""
    kind = sniff(data) or kind_from_name(filename)
    return CONTENT_TYPES.get(kind, "application/octet-stream")
