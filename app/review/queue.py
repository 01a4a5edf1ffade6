"""Reading the review queue: one API page, or a scan when Bookdesk filters locally.

A queue filtered only by what the API understands costs one list call per page. Amount range,
missing revenue type and policy outcome are applied here, so such a queue is read whole (pages
of 100, side by side, at most SCAN_CAP incomes) and paged locally; `capped` says when the queue
was longer than that.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial

from app.numbers import as_utc, to_decimal
from app.review.filters import Filters, LocalFilter
from app.review.reasons import Context, missing_revenue_type, policy_outcome
from app.upstream import run_parallel
from app.upstream.incomes import LIST, PARTNERS

SCAN_PAGE = 100
SCAN_CAP = 1000
NEW_PARTNER_DAYS = 30
PARTNER_TTL = 60.0
_partners: dict[tuple, tuple[float, frozenset]] = {}
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


def load(api, filters: Filters, context: Context) -> QueuePage:
    """The page the filters ask for (an API page, or a page of the local scan)."""
    if not filters.local.active:
        params = {**filters.params, "page": filters.page, "page_size": filters.page_size}
        page = api.page(LIST, params, resource="incomes")
        return QueuePage(page.items, page.count or 0, filters.page, filters.page_size,
                         page.lookups)
    rows, lookups, capped = scan(api, filters.params, filters.local, context)
    start = (filters.page - 1) * filters.page_size
    return QueuePage(rows[start:start + filters.page_size], len(rows), filters.page,
                     filters.page_size, lookups, capped)


def scan(api, params: dict, local: LocalFilter, context: Context,
         cap: int = SCAN_CAP) -> tuple[list[dict], dict, bool]:
    """Every queue income (up to cap) that passes the local filter: (rows, lookups, capped)."""
    first = api.page(LIST, {**params, "page": 1, "page_size": SCAN_PAGE}, resource="incomes")
    total = min(first.count or len(first.items), cap)
    pages = [first]
    if first.next and total > SCAN_PAGE:
        rest = range(2, (total + SCAN_PAGE - 1) // SCAN_PAGE + 1)
        found = run_parallel({str(n): partial(api.page, LIST, {
            **params, "page": n, "page_size": SCAN_PAGE}, resource="incomes") for n in rest})
        pages += [found[str(n)] for n in rest]
    lookups: dict = {}
    for page in pages:
        for name, table in page.lookups.items():
            lookups.setdefault(name, {}).update(table)
    rows = [row for page in pages for row in page.items if passes(row, local, context)]
    return rows, lookups, (first.count or 0) > cap


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
    key = api.scope
    with _partners_lock:
        cached = _partners.get(key)
    if cached and cached[0] > time.monotonic():
        return cached[1]
    page = api.page(PARTNERS, {"ordering": "-created_at", "page_size": 50}, resource="partners")
    since = datetime.now(UTC) - timedelta(days=NEW_PARTNER_DAYS)
    ids = frozenset(p["id"] for p in page.items if _after(p.get("created_at"), since))
    with _partners_lock:
        _partners[key] = (time.monotonic() + PARTNER_TTL, ids)
    return ids


def cached_partners(api) -> frozenset:
    """The recent partners as cached (even when stale), refreshed in the background."""
    from app.review import prefetch

    with _partners_lock:
        cached = _partners.get(api.scope)
    if cached is None or cached[0] <= time.monotonic():
        prefetch.submit(new_partners, prefetch.background_client(api))
    return cached[1] if cached else frozenset()


def _after(stamp, since: datetime) -> bool:
    when = as_utc(stamp)
    return when is not None and when >= since
