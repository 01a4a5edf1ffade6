"""What the review screen shows: the walk of the current queue, the next income, its context.

A step (done, skip, next) takes the next open income of the walk from the prefetch cache,
renders it, and starts reading the ones after it; no upstream read waits on the step itself
when the cache is warm. Incomes found reviewed by someone else meanwhile are dropped on the way.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from flask import g, request, url_for

from app import page_budget
from app.auth import current_actor
from app.incomes.flow import FORM_CATALOGS, base_reads, catalogs_of
from app.review import compare, prefetch, queue, screen, walk
from app.review.document import describe
from app.review.filters import Filters, parse
from app.review.log_view import last_undoable
from app.review.reasons import Context, reasons
from app.upstream.pagination import id_names

LOOKAHEAD = 2


@dataclass
class Base:
    """What every review page needs: settings, catalogues, filters, reason context."""

    settings: dict
    catalogs: dict
    filters: Filters
    context: Context


def base(partners: bool = False) -> Base:
    """Settings and catalogues (cached; within the page's deadline), the filters of this URL,
    the reason context.

    partners=True reads the recent partners when the cache has none (the queue page);
    a step never waits for them.
    """
    found = page_budget.read(base_reads(g.api, FORM_CATALOGS))
    settings, catalogs = found["settings"], catalogs_of(found, FORM_CATALOGS)
    codes = id_names(catalogs.get("currencies") or [], "code")
    filters = parse(request.args, codes)
    fresh = queue.new_partners(g.api) if partners else queue.cached_partners(g.api)
    return Base(settings, catalogs, filters, Context(settings.get("income_policies"), codes,
                                                     fresh))


def ensure_walk(bits: Base, also: dict | None = None) -> tuple[walk.Walk, dict]:
    """This queue's walk from the session, or a new one (the queue read once, in parallel with
    the `also` reads, whose results are returned), within the page's deadline."""
    current = walk.load(g.company_id, bits.filters.key)
    tasks = dict(also or {})
    if current is None and bits.filters.params is not None:
        tasks["_scan"] = partial(queue.scan, g.api, bits.filters.params, bits.filters.local,
                                 bits.context)
    found = page_budget.read(tasks)
    if "_scan" in found:
        rows, _lookups, capped = found.pop("_scan")
        current = walk.start(g.company_id, bits.filters.key, [r["id"] for r in rows], capped)
    return current or walk.Walk(bits.filters.key, []), found


def next_open(current: walk.Walk, after_id: int):
    """(id, detail, artifact) of the next income still waiting, or None at the end."""
    for income_id in current.following(after_id):
        detail, artifact = prefetch.get(g.api, income_id)
        if waiting(detail):
            return income_id, detail, artifact
        current.close(income_id, "gone")
    return None


def waiting(record: dict) -> bool:
    """True while the income still needs review."""
    return bool(record.get("needs_review")) and not record.get("review_done")


def screen_url(income_id: int, key: str) -> str:
    """The review screen of an income within the queue `key`."""
    return url_for("review.screen", income_id=income_id) + (f"?{key}" if key else "")


def screen_context(bits: Base, current: walk.Walk, record: dict, artifact: dict | None,
                   **extra) -> dict:
    """Everything _screen.html needs for one income."""
    income_id = record["id"]
    ahead = current.following(income_id)[:LOOKAHEAD]
    previous = current.before(income_id)
    prefetch.ahead(g.api, ahead + ([previous] if previous else []))
    # Unbound: within a step's POST the next income's form must not take the posted values.
    form = extra.pop("form", None) or screen.build_form(record, bits.settings, bits.catalogs,
                                                        formdata=None)
    return {"income": record, "form": form, "reasons": reasons(record, bits.context),
            "document": describe(artifact), "seen": compare.encode(compare.view(record)),
            "walk": current, "position": current.position(income_id),
            "next_id": ahead[0] if ahead else None, "prev_id": previous,
            "key": bits.filters.key, "can_done": screen.can_mark_done(record),
            "waiting": waiting(record), "items": screen.line_items(record),
            "names": screen.names(bits.catalogs), "catalogs": bits.catalogs,
            "last_action": last_undoable(g.company_id, current_actor()), **extra}


def end_context(bits: Base, current: walk.Walk, **extra) -> dict:
    """The "queue cleared" panel."""
    skipped = [i for i in current.open_ids() if i in current.skipped]
    return {"income": None, "walk": current, "key": bits.filters.key,
            "first_skipped": skipped[0] if skipped else None,
            "last_action": last_undoable(g.company_id, current_actor()), **extra}
