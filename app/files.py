"""Files of records: what a file really is, how a page shows it, uploading files as new
expenses, and serving an expense's file same-origin.

What a file is comes from its first bytes, whatever its name says: the same test the upstream
applies to uploads (spec 4.3): PDF, PNG, JPEG, or XML with a root element (HTML is not XML for
this purpose). The income form's invoice image is checked by it too.

An upload checks each file by its content before it is sent, sends the whole submit at most
once (app.once) and keeps the upstream's refusals per file.

The file is served from this origin so the page can frame a PDF or show an image under the
strict CSP, and the browser never sees the upstream's signed link.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from urllib.parse import quote

from flask import Response, abort, g
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.numbers import format_number
from app.upstream import (
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamError,
    ValidationError,
)
from app.upstream import expenses as upstream
from app.upstream.errors import upstream_messages, upstream_text
from app.upstream.parallel import run_parallel
from app.upstream.responses import artifact_filenames, created_id

PDF, PNG, JPEG, XML = "pdf", "png", "jpg", "xml"
CONTENT_TYPES = {PDF: "application/pdf", PNG: "image/png", JPEG: "image/jpeg",
                 XML: "application/xml"}
NAMED = {"pdf": PDF, "png": PNG, "jpg": JPEG, "jpeg": JPEG, "jpe": JPEG, "xml": XML}
INLINE = (PDF, PNG, JPEG)
ROOT_ELEMENT = re.compile(rb"<[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.\-]*)?[\s/>]")
PROLOGUE = (b"<!--", b"<!DOCTYPE", b"<!doctype")
PURPOSE = "expenses.upload"
MEGABYTE = 1024 * 1024
MAX_BYTES = 10 * MEGABYTE
MAX_FILES = 20
# Duplicate searches run side by side this many at a time: an upload of MAX_FILES files must
# not take the shared pool from every other page's reads.
SEARCHES_AT_ONCE = 4
KIND_NAMES = {"pdf": "PDF", "jpg": "JPEG", "png": "PNG", "xml": "XML"}
NOT_SENT = _l("Not sent: the accounting service stopped taking files. Send this file again.")
UNCONFIRMED = _l("The accounting service did not confirm the request, and it is not yet known "
                 "whether this file was uploaded. Check the expense list before you send it again.")
# The upstream's clock and ours differ a little; a lost create is looked for from this far back.
CLOCK_SLACK = timedelta(minutes=1)
# A framed PDF may be shown by this page only; nothing in it may load or run anything else.
FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; " \
           "frame-ancestors 'self'; base-uri 'none'; form-action 'none'"


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


@dataclass(frozen=True)
class Upload:
    """A file that passed the content check."""

    filename: str
    content: bytes
    kind: str


@dataclass
class Outcome:
    """What a submit did: expenses created, files refused (filename, reason)."""

    created: list[dict] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    # Files held back as uploaded before: (filename, [{expense_id, created_at}, ...]).
    held: list[tuple[str, list[dict]]] = field(default_factory=list)
    unchecked: bool = False


def read_files(storages) -> Outcome | list[Upload]:
    """The chosen files as Uploads, or an Outcome listing why some of them are refused."""
    chosen = [s for s in storages if s is not None and s.filename]
    if len(chosen) > MAX_FILES:
        return Outcome(refused=[("", _("Send at most %(count)s files at once.",
                                        count=MAX_FILES))])
    uploads, refused = [], []
    for storage in chosen:
        content = storage.read(MAX_BYTES + 1)
        reason = refusal(storage.filename, content)
        if reason:
            refused.append((storage.filename, reason))
        else:
            uploads.append(Upload(storage.filename, content, sniff(content)))
    return Outcome(refused=refused) if refused else uploads


def refusal(filename: str, content: bytes) -> str | None:
    """Why a file cannot be sent (empty, too large, not what it claims to be), else None."""
    if not content:
        return _("The file is empty.")
    if len(content) > MAX_BYTES:
        return _("The file is larger than %(size)s MB.", size=format_number(MAX_BYTES // MEGABYTE))
    if sniff(content) is not None:
        return None
    kind = claimed(filename)
    if kind:
        return _("This file is not a real %(kind)s: its content is not a PDF, JPEG, PNG or XML "
                 "document, whatever its name says.", kind=KIND_NAMES[kind])
    return _("This file is not a PDF, JPEG, PNG or XML document.")


def hold_back_seen(uploads: list[Upload]) -> tuple[list[Upload], Outcome]:
    """(the uploads no expense holds yet, an Outcome naming the files held back as uploaded
    before, by name and size); a file whose search fails goes on, unchecked, and says so."""
    found: dict[str, list[dict] | None] = {}
    for start in range(0, len(uploads), SEARCHES_AT_ONCE):
        batch = uploads[start:start + SEARCHES_AT_ONCE]
        found.update(run_parallel({str(start + n): partial(_seen, g.api, upload)
                                   for n, upload in enumerate(batch)}))
    pairs = [(upload, found[str(n)]) for n, upload in enumerate(uploads)]
    held = [(upload.filename, seen) for upload, seen in pairs if seen]
    return ([upload for upload, seen in pairs if not seen],
            Outcome(held=held, unchecked=any(seen is None for _upload, seen in pairs)))


def _seen(client, upload: Upload) -> list[dict] | None:
    """The expenses that hold this file already; None when the search could not be made."""
    try:
        return upstream.same_file(client, upload.filename, len(upload.content))
    except UpstreamError:
        return None


def send_all(uploads: list[Upload]) -> Outcome:
    """POST each file; the upstream's own refusal is kept with its file.

    When the upstream fails after some files were created, the rest are reported as not sent
    (raising would lose track of what was created and invite a duplicate resend).
    """
    outcome = Outcome()
    for index, upload in enumerate(uploads):
        try:
            outcome.created.append(_send_one(upload))
        except ValidationError as exc:
            outcome.refused.append((upload.filename, upstream_reason(exc)))
        except UpstreamError as exc:
            if not outcome.created:
                raise
            outcome.refused += _after_failure(exc, uploads[index:], outcome)
            break
    return outcome


def _after_failure(exc: UpstreamError, rest: list[Upload], outcome: Outcome) -> list:
    """Refusals for the files from the first failed one on; a lost answer is read back."""
    lost, unsent = rest[0], rest[1:]
    reason = str(NOT_SENT)
    if isinstance(exc, Unavailable):
        try:
            found = find_created(lost, datetime.now(UTC) - CLOCK_SLACK)
        except (Unavailable, RateLimited):
            found, reason = None, str(UNCONFIRMED)
        if found is not None:
            outcome.created.append(found)
            lost = None
    kept = [(lost.filename, reason)] if lost is not None else []
    return kept + [(upload.filename, str(NOT_SENT)) for upload in unsent]


def find_created(upload: Upload, since: datetime) -> dict | None:
    """The newest expense created since `since` whose file has this upload's name and kind.

    The form sends only the file, so nothing else tells two uploads of one filename apart:
    another upload of the same name in that minute would be taken for this one.
    """
    recent = [e for e in upstream.created_since(g.api, since.isoformat())
              if e.get("has_artifact")]
    infos = upstream.artifacts(g.api, [e["id"] for e in recent])
    names = artifact_filenames(infos)
    match = max((e for e in recent if names.get(e["id"]) == upload.filename),
                key=lambda e: e["id"], default=None)
    if match is None:
        return None
    return {"id": match["id"], "filename": upload.filename,
            "filing_number": match.get("filing_number")}


def _send_one(upload: Upload) -> dict:
    created = upstream.create(g.api, upload.filename, upload.content, CONTENT_TYPES[upload.kind])
    return {"id": created_id(created), "filename": upload.filename,
            "filing_number": (created or {}).get("filing_number")}


def upstream_reason(error: ValidationError) -> str:
    """The upstream's words about the file (translated where Bookdesk knows them)."""
    file_errors = error.field_errors.get("file")
    messages = [upstream_text(m) for m in file_errors] if file_errors else upstream_messages(error)
    return " ".join(messages) or _(
        "The accounting service did not accept the file.")


def inline_kind(expense: dict) -> str | None:
    """pdf, png or jpg when the detail can show the artifact inline, else None."""
    kind = claimed("x." + str(expense.get("artifact_extension") or ""))
    return kind if expense.get("has_artifact") and kind in INLINE else None


def fetch_file(read: Callable[[], dict | None], known: dict | None = None) -> tuple[dict, bytes]:
    """A file record (read(): with its signed link, or None) and the file's bytes, fetched
    by Bookdesk; known: a record read before (a read-ahead copy), tried first when it has a
    link. A link that lapsed or vanished before its fetch (a slow upstream, an old copy, a
    file replaced since) is read anew once. 404 when there is no file."""
    try:
        return _fetch((lambda: known) if known and known.get("url") else read)
    except (PermissionDenied, NotFound):
        return _fetch(read)


def _fetch(read: Callable[[], dict | None]) -> tuple[dict, bytes]:
    record = read()
    if record is None or not record.get("url"):
        abort(404)
    return record, g.api.download(record["url"])[0]


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
    # The fallback drops accents (számla -> szamla) rather than the letters that carry them.
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", filename)
                    if not unicodedata.combining(ch))
    fallback = plain.encode("ascii", "replace").decode().replace('"', "").replace("?", "_")
    fallback = "".join(ch for ch in fallback if 32 <= ord(ch) < 127)
    return f"{mode}; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


# How a page shows a record's file (review screen, edit pages).

IMAGE_EXTENSIONS = ("png", "jpg", "jpeg")


@dataclass(frozen=True)
class Document:
    """What a page says about a record's file."""

    kind: str  # "image", "pdf", "file" (offered as a download) or "none"
    filename: str | None = None
    extension: str | None = None


def document_of(artifact: dict | None) -> Document:
    """How the screen shows the file of an artifact record."""
    if not artifact or not artifact.get("has_artifact"):
        return Document("none")
    extension = (artifact.get("extension") or "").lower().lstrip(".")
    kind = "image" if extension in IMAGE_EXTENSIONS else ("pdf" if extension == "pdf" else "file")
    return Document(kind, artifact.get("filename"), extension or None)
