"""Small valid files made in code: a one-page PDF and a one-colour PNG (demo data, tests)."""
from __future__ import annotations

import struct
import zlib


def minimal_pdf(text: str) -> bytes:
    """A valid one-page PDF showing one line of ASCII text."""
    safe = text.encode("ascii", "replace").replace(b"\\", b"").replace(b"(", b"") \
        .replace(b")", b"")
    stream = b"BT /F1 18 Tf 72 720 Td (" + safe + b") Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
               b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def tiny_png(seed: int = 0, size: int = 8) -> bytes:
    """A valid size x size RGB PNG of one colour picked from seed."""
    colour = bytes(((seed * 67) % 256, (seed * 131) % 256, (seed * 29) % 256))
    raw = b"".join(b"\x00" + colour * size for _ in range(size))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))
