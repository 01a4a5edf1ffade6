"""What the review screen walks through: the queue read from the API, the walk of its ids in
the session, and what a step shows next (the incomes ahead come from prefetch.py).

The queue: a queue filtered only by what the API understands costs one list call per page.
Amount range, missing revenue type and policy outcome are applied here, so such a queue is read
whole (pages of 100, side by side, at most SCAN_CAP incomes) and paged locally; `capped` says
when the queue was longer than that.

The walk: the queue is read once when a walk starts (scan); after that, stepping from one income
to the next needs no list call. Incomes marked done here, or found already reviewed by someone
else, drop out of the walk; skipped ones stay (the reviewer may come back to them).

A step (done, skip, next) takes the next open income of the walk from the prefetch cache,
renders it, and starts reading the ones after it; no upstream read waits on the step itself
when the cache is warm. Incomes found reviewed by someone else meanwhile are dropped on the way.
"""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property, partial

from cachetools import TTLCache
from flask import g, request, session, url_for

from app.auth import current_actor
from app.exports import EXPORT_PAGE_SIZE
from app.files import document_of
from app.forms import base_reads, catalogs_of
from app.incomes.flow import FORM_CATALOGS
from app.numbers import as_utc, to_decimal
from app.review import prefetch
from app.review.forms import Filters, LocalFilter, encode, key_of, parse, view
from app.review.present import (
    Context,
    build_form,
    can_mark_done,
    last_undoable,
    line_items,
    missing_revenue_type,
    names,
    policy_outcome,
    reasons,
)
from app.upstream import UpstreamError, run_parallel
from app.upstream import incomes as income_api
from app.upstream import parallel as page_budget
from app.upstream import partners as partner_api
from app.upstream.responses import id_names

# The walk: the queue's ids in the session.

SESSION_KEY = "review_walks"
WALK_TTL = 30 * 60.0


@dataclass
class Walk:
    """The ids of one queue (filter key) and what happened to them in this session."""

    key: str
    ids: list[int]
    capped: bool = False
    done: list[int] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    at: float = field(default_factory=time.time)

    def open_ids(self) -> list[int]:
        """The ids still waiting for review, in queue order."""
        closed = set(self.done) | set(self.gone)
        return [i for i in self.ids if i not in closed]

    @property
    def left(self) -> int:
        """How many incomes are still waiting."""
        return len(self.open_ids())

    def following(self, income_id: int) -> list[int]:
        """Open ids after income_id, then (wrapping round) earlier ones not skipped."""
        ids = self.open_ids()
        start = ids.index(income_id) + 1 if income_id in ids else self._insert_at(income_id, ids)
        wrapped = [i for i in ids[:start] if i != income_id and i not in self.skipped]
        return ids[start:] + wrapped

    def before(self, income_id: int) -> int | None:
        """The open id before income_id, if any."""
        ids = self.open_ids()
        start = ids.index(income_id) if income_id in ids else self._insert_at(income_id, ids)
        return ids[start - 1] if start > 0 else None

    def _insert_at(self, income_id: int, open_ids: list[int]) -> int:
        """Where a closed id stood among the open ones (so next/previous still make sense)."""
        if income_id not in self.ids:
            return 0
        places = {i: n for n, i in enumerate(self.ids)}
        return sum(1 for i in open_ids if places[i] < places[income_id])

    def position(self, income_id: int) -> int | None:
        """1-based place of an open id among the open ones."""
        ids = self.open_ids()
        return ids.index(income_id) + 1 if income_id in ids else None

    def close(self, income_id: int, how: str = "done") -> None:
        """Take an income out of the walk: done by us, or gone (reviewed elsewhere)."""
        target = self.done if how == "done" else self.gone
        if income_id not in target:
            target.append(income_id)

    def reopen(self, income_id: int) -> None:
        """Put an income back (after an undo), at its old place or at the front."""
        self.done = [i for i in self.done if i != income_id]
        self.gone = [i for i in self.gone if i != income_id]
        if income_id not in self.ids:
            self.ids.insert(0, income_id)

    def skip(self, income_id: int) -> None:
        """Remember that the reviewer skipped it."""
        if income_id not in self.skipped:
            self.skipped.append(income_id)


def load_walk(company_id: int, key: str | None = None) -> Walk | None:
    """This session's walk of the company, when fresh (and of the same queue, if key given)."""
    data = (session.get(SESSION_KEY) or {}).get(str(company_id))
    if not data:
        return None
    walk = Walk(**data)
    if time.time() - walk.at > WALK_TTL or (key is not None and walk.key != key):
        return None
    return walk


def start_walk(company_id: int, key: str, ids: list[int], capped: bool = False) -> Walk:
    """A new walk over ids, stored in the session."""
    walk = Walk(key, list(ids), capped)
    save_walk(company_id, walk)
    return walk


def save_walk(company_id: int, walk: Walk) -> None:
    """Store the walk (one per company per session)."""
    walks = dict(session.get(SESSION_KEY) or {})
    walks[str(company_id)] = asdict(walk)
    session[SESSION_KEY] = walks
    session.modified = True


# Reading the queue: one API page, or a scan when Bookdesk filters locally.

SCAN_PAGE = 100
SCAN_CAP = 1000
# Rows a bulk "done" reads in one call to check the selection before writing.
SELECTION_PAGE = 500
NEW_PARTNER_DAYS = 30
PARTNER_TTL = 60.0
# A step shows the last list read up to PARTNER_STALE seconds old while a fresh one is read.
PARTNER_STALE = 10 * 60.0
# (read at, ids) per token scope: cachetools bounds the scopes kept and drops the too old.
_partners: TTLCache = TTLCache(512, PARTNER_STALE, timer=time.monotonic)
_partners_lock = threading.Lock()


@dataclass
class QueuePage:
    """Rows of one page of the queue, its size, and the lookup names the API sent along."""

    rows: list[dict]
    count: int
    page: int
    page_size: int
    lookups: dict = field(default_factory=dict)
    capped: bool = False

    @property
    def ids(self) -> list[int]:
        """The income ids on this page, in order."""
        return [row["id"] for row in self.rows]


def load_page(api, filters: Filters, context: Context) -> QueuePage:
    """The page the filters ask for (an API page, or a page of the local scan)."""
    if not filters.local.active:
        params = {**filters.params, "page": filters.page, "page_size": filters.page_size}
        page = income_api.list_page(api, params)
        return QueuePage(page.items, page.count or 0, filters.page, filters.page_size,
                         page.lookups)
    rows, lookups, capped = scan(api, filters.params, filters.local, context)
    start = (filters.page - 1) * filters.page_size
    return QueuePage(rows[start:start + filters.page_size], len(rows), filters.page,
                     filters.page_size, lookups, capped)


def scan(api, params: dict, local: LocalFilter, context: Context,
         cap: int = SCAN_CAP) -> tuple[list[dict], dict, bool]:
    """Every queue income (up to cap) that passes the local filter: (rows, lookups, capped)."""
    first = income_api.list_page(api, {**params, "page": 1, "page_size": SCAN_PAGE})
    total = min(first.count or len(first.items), cap)
    pages = [first]
    if first.next and total > SCAN_PAGE:
        rest = range(2, (total + SCAN_PAGE - 1) // SCAN_PAGE + 1)
        found = run_parallel({str(n): partial(income_api.list_page, api, {
            **params, "page": n, "page_size": SCAN_PAGE}) for n in rest})
        pages += [found[str(n)] for n in rest]
    lookups: dict = {}
    for page in pages:
        for name, table in page.lookups.items():
            lookups.setdefault(name, {}).update(table)
    rows = [row for page in pages for row in page.items if passes(row, local, context)]
    return rows, lookups, (first.count or 0) > cap


def export_pages(api, filters: Filters, context: Context):
    """Every page of the queue the filters make, as the queue shows it: the API's order, the
    local filter applied to each page, and (when Bookdesk filters) only the first SCAN_CAP
    incomes looked at, as the queue's scan does; then the API's count is not the rows'."""
    cap = SCAN_CAP if filters.local.active else None
    seen = 0
    for page in income_api.iter_pages(api, {**filters.params, "page_size": EXPORT_PAGE_SIZE}):
        items = page.items if cap is None else page.items[:max(cap - seen, 0)]
        seen += len(items)
        yield replace(page, items=[row for row in items if passes(row, filters.local, context)],
                      count=page.count if cap is None else None)
        if cap is not None and seen >= cap:
            return


def selected_records(api, params: dict, income_ids: list[int]) -> dict[int, dict]:
    """The selected incomes as the queue lists them: one list read (the queue's first
    SELECTION_PAGE rows); one not among them (further down, or no longer waiting) is read alone,
    and one that cannot be read is left out (its write then reports why)."""
    page = income_api.list_page(api, {**params, "page": 1, "page_size": SELECTION_PAGE})
    wanted = set(income_ids)
    found = {row["id"]: row for row in page.items if row["id"] in wanted}
    rest = [income_id for income_id in income_ids if income_id not in found]
    # GET /1/incomes has no filter by id (its query parameters, in the live API's shapes:
    # dates, invoice_number, partner, paid_status, tags, ordering, paging...). A selected income
    # missing here has mostly left the queue (reviewed meanwhile), which no further list page
    # holds; one further down would cost list pages in proportion to the queue's length. The
    # detail reads are bounded by the selection (one queue page) and run side by side.
    if rest:
        answers = run_parallel({str(i): partial(_detail_or_none, api, i) for i in rest})
        found.update({int(key): record for key, record in answers.items() if record})
    return found


def _detail_or_none(api, income_id: int) -> dict | None:
    try:
        return prefetch.read(api, income_id, with_artifact=False)[0]
    except UpstreamError:
        return None


def passes(row: dict, local: LocalFilter, context: Context) -> bool:
    """True when an income passes the filters Bookdesk applies itself."""
    gross = to_decimal(row.get("gross_amount"))
    if local.amount_min is not None and (gross is None or gross < local.amount_min):
        return False
    if local.amount_max is not None and (gross is None or gross > local.amount_max):
        return False
    if local.missing and not missing_revenue_type(row):
        return False
    return not local.policy or policy_outcome(row, context) == local.policy


def new_partners(api) -> frozenset:
    """Ids of partners created in the last NEW_PARTNER_DAYS (cached briefly per token).

    Partners without created_at (not every upstream sends it) are never called new.
    """
    with _partners_lock:
        cached = _partners.get(api.scope)
    if cached and time.monotonic() - cached[0] < PARTNER_TTL:
        return cached[1]
    page = partner_api.recent(api)
    since = datetime.now(UTC) - timedelta(days=NEW_PARTNER_DAYS)
    ids = frozenset(p["id"] for p in page.items if _after(p.get("created_at"), since))
    with _partners_lock:
        _partners[api.scope] = (time.monotonic(), ids)
    return ids


def cached_partners(api) -> frozenset:
    """The recent partners as cached (stale up to PARTNER_STALE), refreshed in the background."""
    with _partners_lock:
        cached = _partners.get(api.scope)
    if cached is None or time.monotonic() - cached[0] >= PARTNER_TTL:
        prefetch.submit(new_partners, prefetch.background_client(api))
    return cached[1] if cached else frozenset()


def _after(stamp, since: datetime) -> bool:
    when = as_utc(stamp)
    return when is not None and when >= since


# What a step shows.

LOOKAHEAD = 2
# Incomes a step reads at once when the next one was not prefetched.
STEP_READS = 5


@dataclass
class Base:
    """What every review page needs: settings, catalogues, reason context, the queue's key."""

    settings: dict
    catalogs: dict
    context: Context
    key: str

    @cached_property
    def filters(self) -> Filters:
        """The URL's queue filter, parsed when a page needs more than its key (a step whose
        walk is in the session does not)."""
        return parse(request.args, self.context.codes)


def base(partners: bool = False) -> Base:
    """Settings and catalogues (cached; within the page's deadline), the reason context, the
    queue's key.

    partners=True reads the recent partners when the cache has none (the queue page);
    a step never waits for them.
    """
    found = page_budget.read(base_reads(g.api, FORM_CATALOGS))
    settings, catalogs = found["settings"], catalogs_of(found, FORM_CATALOGS)
    codes = id_names(catalogs.get("currencies") or [], "code")
    fresh = new_partners(g.api) if partners else cached_partners(g.api)
    return Base(settings, catalogs, Context(settings.get("income_policies"), codes, fresh),
                key_of(request.args))


def ensure_walk(bits: Base, also: dict | None = None) -> tuple[Walk, dict]:
    """This queue's walk from the session, or a new one (the queue read once, in parallel with
    the `also` reads, whose results are returned), within the page's deadline."""
    current = load_walk(g.company_id, bits.key)
    tasks = dict(also or {})
    if current is None and bits.filters.params is not None:
        tasks["_scan"] = partial(scan, g.api, bits.filters.params, bits.filters.local,
                                 bits.context)
    found = page_budget.read(tasks)
    if "_scan" in found:
        rows, _lookups, capped = found.pop("_scan")
        current = start_walk(g.company_id, bits.key, [r["id"] for r in rows], capped)
    return current or Walk(bits.key, []), found


def next_open(current: Walk, after_id: int):
    """(id, detail, artifact) of the next income still waiting, or None at the end. An income
    not prefetched is read side by side with the next few (STEP_READS), so incomes reviewed
    elsewhere meanwhile cost one round of reads, not one read each after another."""
    ids = current.following(after_id)
    while ids:
        found = prefetch.cached(g.api, ids[0])
        batch = {ids[0]: found} if found is not None else _read_ahead(ids[:STEP_READS])
        for income_id, (detail, artifact) in batch.items():
            if waiting(detail):
                return income_id, detail, artifact
            current.close(income_id, "gone")
        ids = ids[len(batch):]
    return None


def _read_ahead(ids: list[int]) -> dict[int, tuple[dict, dict | None]]:
    """The incomes' (detail, artifact) in walk order, read side by side through the prefetch
    (each kept there, so the records not looked at yet serve the next steps)."""
    found = run_parallel({str(i): partial(prefetch.get, g.api, i) for i in ids})
    return {i: found[str(i)] for i in ids}


def waiting(record: dict) -> bool:
    """True while the income still needs review."""
    return bool(record.get("needs_review")) and not record.get("review_done")


def screen_url(income_id: int, key: str) -> str:
    """The review screen of an income within the queue `key`."""
    return url_for("review.screen", income_id=income_id) + (f"?{key}" if key else "")


def screen_context(bits: Base, current: Walk, record: dict, artifact: dict | None,
                   **extra) -> dict:
    """Everything _screen.html needs for one income."""
    income_id = record["id"]
    ahead = current.following(income_id)[:LOOKAHEAD]
    previous = current.before(income_id)
    prefetch.ahead(g.api, ahead + ([previous] if previous else []))
    # Unbound: within a step's POST the next income's form must not take the posted values.
    form = extra.pop("form", None) or build_form(record, bits.settings, bits.catalogs,
                                                        formdata=None)
    return {"income": record, "form": form, "reasons": reasons(record, bits.context),
            "document": document_of(artifact), "seen": encode(view(record)),
            "walk": current, "position": current.position(income_id),
            "next_id": ahead[0] if ahead else None, "prev_id": previous,
            "key": bits.key, "can_done": can_mark_done(record),
            "waiting": waiting(record), "items": line_items(record),
            "names": names(bits.catalogs), "catalogs": bits.catalogs,
            "last_action": last_undoable(g.company_id, current_actor()), **extra}


def end_context(bits: Base, current: Walk, **extra) -> dict:
    """The "queue cleared" panel."""
    skipped = [i for i in current.open_ids() if i in current.skipped]
    return {"income": None, "walk": current, "key": bits.key,
            "first_skipped": skipped[0] if skipped else None,
            "last_action": last_undoable(g.company_id, current_actor()), **extra}
