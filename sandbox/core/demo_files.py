"""Tiny but valid PDF and PNG files, made in code for demo data, sandbox controls and tests."""
from __future__ import annotations

import struct
import zlib

# WinAnsi has no ő/ű; the nearest letters keep Hungarian text readable in the demo PDFs.
LATIN1_FALLBACK = str.maketrans({"ő": "ö", "Ő": "Ö", "ű": "ü", "Ű": "Ü"})


def minimal_pdf(lines: list[str] | str) -> bytes:
    """A one-page A4 PDF showing the lines (or one line) in Helvetica, with a correct xref."""
    if isinstance(lines, str):
        lines = [lines]
    text = "".join(f"({_pdf_text(line)}) Tj T* " for line in lines)
    stream = f"BT /F1 14 Tf 18 TL 72 770 Td {text}ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def minimal_png(width: int = 16, height: int = 16, rgb: tuple = (40, 90, 160)) -> bytes:
    """A solid-colour RGB PNG."""
    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(row * height)) + _chunk(b"IEND", b""))


def tiny_png(seed: int = 0, size: int = 8) -> bytes:
    """A valid size x size RGB PNG of one colour picked from seed (distinct files in tests)."""
    colour = ((seed * 67) % 256, (seed * 131) % 256, (seed * 29) % 256)
    return minimal_png(size, size, colour)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _pdf_text(line: str) -> str:
    safe = line.translate(LATIN1_FALLBACK).encode("latin-1", "replace").decode("latin-1")
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
