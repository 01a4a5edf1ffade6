"""Documents (spec 2.11, 4.9): attached and unattached files, each downloaded through the
pre-signed, token-free link the API hands out (it expires, so the page is the place to get a
fresh one)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import g, request
from flask_babel import lazy_gettext as _l

from app.auth import company_blueprint
from app.templating import render

bp = company_blueprint("documents", __name__, url_prefix="/documents")

PATH = "/2/documents"
PAGE_SIZE = 50
FILTERS = (("", _l("All documents")), ("true", _l("Attached to a record")),
           ("false", _l("Not attached")))
RECORD_PATHS = {"income": "incomes", "expense": "expenses"}


@bp.get("/")
def index():
    """One page of documents, newest first; ?attached=true|false narrows it."""
    attached = request.args.get("attached", "")
    attached = attached if attached in ("true", "false") else ""
    page = g.api.page(PATH, {"is_attached": attached or None, "page_size": PAGE_SIZE,
                             "cursor": request.args.get("cursor") or None},
                      resource="documents")
    return render("catalog/documents.html", "catalog/_documents.html", page=page,
                  attached=attached, filters=FILTERS, next_cursor=cursor_of(page.next),
                  prev_cursor=cursor_of(page.previous), record_url=record_url,
                  size_label=size_label)


def cursor_of(link: str | None) -> str | None:
    """The cursor inside an API `next`/`previous` link (the page builds its own links)."""
    if not link:
        return None
    values = parse_qs(urlsplit(link).query).get("cursor")
    return values[0] if values else None


def record_url(target: dict | None) -> str | None:
    """The Bookdesk page of the record a document is attached to."""
    if not isinstance(target, dict) or target.get("type") not in RECORD_PATHS:
        return None
    return f"/c/{g.company_id}/{RECORD_PATHS[target['type']]}/{target.get('id')}"


def size_label(size) -> str:
    """A file size in kB or MB."""
    from app.numbers import format_number

    if not isinstance(size, int):
        return "—"
    if size >= 1024 * 1024:
        return f"{format_number(size / (1024 * 1024), places=1)} MB"
    return f"{format_number(max(size / 1024, 0.1), places=1)} kB"
