"""A page's time budget: its reads run side by side until PAGE_DEADLINE_SECONDS have passed.

Past the deadline a page renders what arrived: optional reads that did not are named in a
message (templates/_missing.html), a required read that did not gives a friendly error page.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import current_app, g
from flask_babel import lazy_gettext as _l

from app.upstream import Unavailable, run_until

PARTS = {
    "currencies": _l("currencies"),
    "ledger_numbers": _l("ledger numbers"),
    "vat_categories": _l("VAT categories"),
    "stornos": _l("cancellation state"),
    "originals": _l("original documents"),
    "partners": _l("partner list"),
}


class PageTimedOut(Unavailable):
    """A read the page cannot do without did not finish before the page's deadline."""

    default_message = "page deadline passed"


def deadline() -> float:
    """When this request's reads must be done (time.monotonic()), fixed at the first call."""
    if "page_deadline" not in g:
        g.page_deadline = time.monotonic() + current_app.config["PAGE_DEADLINE_SECONDS"]
    return g.page_deadline


def read(tasks: Mapping[str, Callable[[], Any]], optional: Iterable[str] = ()) -> dict:
    """Run the page's reads side by side until its deadline; an optional one left out is
    noted for the page (and missing from the result), a required one raises PageTimedOut."""
    found, unfinished = run_until(tasks, deadline())
    if unfinished - set(optional):
        raise PageTimedOut()
    g.missing_parts = [*missing_parts(), *(str(PARTS[name]) for name in sorted(unfinished))]
    return found


def missing_parts() -> list[str]:
    """The names of the parts this page could not load in time (for templates/_missing.html)."""
    return list(g.get("missing_parts", []))
