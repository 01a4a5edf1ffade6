"""The income's document on the review screen, served from Bookdesk's own origin.

The CSP allows images and frames from 'self' only, and the upstream hands out signed links on
its own host, so the file is fetched here and passed on: a PNG or JPEG as an image, a PDF framed
beside the fields, anything else (XML) offered as a download. The bytes come from
UpstreamClient.download (typed errors, counted calls, no token on the signed link); serving reuses
the expenses area's same-origin file response (app.expenses.files), with a locked-down CSP on the
file itself.
"""
from __future__ import annotations

from dataclasses import dataclass

IMAGE_EXTENSIONS = ("png", "jpg", "jpeg")


@dataclass(frozen=True)
class Document:
    """What the review screen says about an income's file."""

    kind: str  # "image", "pdf", "file" (offered as a download) or "none"
    filename: str | None = None
    extension: str | None = None


def describe(artifact: dict | None) -> Document:
    """How the screen shows the file of an artifact record."""
    if not artifact or not artifact.get("has_artifact"):
        return Document("none")
    extension = (artifact.get("extension") or "").lower().lstrip(".")
    kind = "image" if extension in IMAGE_EXTENSIONS else ("pdf" if extension == "pdf" else "file")
    return Document(kind, artifact.get("filename"), extension or None)
