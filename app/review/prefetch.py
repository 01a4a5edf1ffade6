"""Incomes read ahead in the background, so stepping to the next one waits for no read.

When the review screen shows an income, the next ones in the walk (and the previous one) are
read on a small thread pool after the view returns: the detail and, when it has a file, its
artifact record. The step that follows finds them here. A read still under way is waited for;
a missing or failed one is read on the spot. Entries live PREFETCH_TTL seconds in a
cachetools TTLCache (an older copy is read again; past MAX_ENTRIES the least recently used
go); an income saved anywhere in the process (upstream.incomes.update) is dropped at once,
from every user's entries of that company, not only the saving user's.
Freshness is not trusted for writing anyway: every write compares what the reviewer saw with
the record the API returns (forms.changes).

The cache is per process; with several worker processes a step that lands on another process
reads the income itself (one more read, same result).
"""
from __future__ import annotations

import copy
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from cachetools import TTLCache

from app.upstream import CallStats, UpstreamError
from app.upstream import incomes as income_api

DETAIL_FIELDS = "items"
PREFETCH_TTL = 120.0
MAX_ENTRIES = 2000
_pool = ThreadPoolExecutor(2, thread_name_prefix="review-prefetch")
_entries: TTLCache = TTLCache(MAX_ENTRIES, PREFETCH_TTL)
_lock = threading.Lock()


def read(api, income_id: int, with_artifact: bool = True) -> tuple[dict, dict | None]:
    """(detail, artifact record or None) of one income, read now with api."""
    detail = income_api.get(api, income_id, fields=DETAIL_FIELDS)
    if not with_artifact or detail.get("has_artifact") is False:
        return detail, None
    return detail, income_api.artifact(api, income_id)


def cached(api, income_id: int, wait: float = 15.0) -> tuple[dict, dict | None] | None:
    """The prefetched pair, waiting for one under way; None when absent, stale or failed."""
    with _lock:
        future = _entries.get((*api.scope, income_id))
    if future is None:
        return None
    try:
        return future.result(timeout=wait)
    except (UpstreamError, TimeoutError):
        return None


def get(api, income_id: int, with_artifact: bool = True) -> tuple[dict, dict | None]:
    """The prefetched pair, else read on the spot with the request's client (and kept)."""
    found = cached(api, income_id)
    if found is None:
        found = read(api, income_id, with_artifact)
        keep(api, *found, keep_artifact=not with_artifact)
    return found


def keep(api, detail: dict, artifact: dict | None = None, *, keep_artifact: bool = True) -> None:
    """Store a record the request already has (e.g. a write's answer)."""
    if keep_artifact and artifact is None:
        previous = cached(api, detail["id"], wait=0)
        artifact = previous[1] if previous else None
    future: Future = Future()
    future.set_result((detail, artifact))
    _store((*api.scope, detail["id"]), future)


def ahead(api, income_ids: list[int]) -> None:
    """Start background reads of the incomes not already cached and fresh."""
    client = None
    for income_id in income_ids:
        key = (*api.scope, income_id)
        with _lock:
            if key in _entries:
                continue
        client = client or background_client(api)
        _store(key, _pool.submit(read, client, income_id))


def submit(fn, *args) -> Future:
    """Run a background read on the prefetch pool (its errors stay in the future)."""
    return _pool.submit(fn, *args)


def forget(api, income_id: int) -> None:
    """Drop an income from every user's cache of the company; upstream.incomes.update calls it
    after every write, so no reviewer acts on a copy read before someone else's write."""
    company = api.scope[:2]  # base URL and company: every token's entry of them
    with _lock:
        for key in [key for key in _entries if key[:2] == company and key[-1] == income_id]:
            _entries.pop(key, None)


income_api.ON_UPDATE.append(forget)  # an income saved anywhere is read again here


def background_client(api):
    """A copy of the request's client that counts its calls apart (not in Server-Timing)."""
    client = copy.copy(api)
    client.stats = CallStats(request_id=f"{api.stats.request_id or 'review'}-prefetch")
    client.app_name = f"{api.app_name} prefetch"
    return client


def _store(key: tuple, future: Future) -> None:
    with _lock:
        _entries[key] = future


def under_way() -> int:
    """How many background reads have not finished yet."""
    with _lock:
        return sum(not future.done() for future in _entries.values())


def clear() -> None:
    """Forget everything (tests)."""
    with _lock:
        _entries.clear()
