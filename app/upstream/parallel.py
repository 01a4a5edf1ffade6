"""A page's upstream calls: read side by side within the page's time budget, and every call
counted and timed for the request's Server-Timing header.

Independent upstream reads for one page, run side by side on a small shared pool.

A page's time budget: its reads run side by side until PAGE_DEADLINE_SECONDS have passed.

Past the deadline a page renders what arrived: optional reads that did not are named in a
message (templates/_missing.html), a required read that did not gives a friendly error page.

Per-request accounting: each attempt the client makes is a Call in the request's CallStats
(on flask.g); every response carries Server-Timing entries for upstream and app time.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Flask, Response, current_app, g, has_app_context
from flask_babel import lazy_gettext as _l

from .errors import Unavailable

# Threads only wait on the network: enough for several concurrent pages of ~5 reads each.
MAX_WORKERS = 32

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_local = threading.local()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(MAX_WORKERS, thread_name_prefix="upstream")
        return _pool


def restart_pool() -> None:
    """Let the running reads finish, then start the next ones on new worker threads (a
    profiler set with threading.setprofile reaches only threads started after it)."""
    global _pool
    with _pool_lock:
        old, _pool = _pool, None
    if old is not None:
        old.shutdown(wait=True)


def _in_worker(fn: Callable[[], Any]) -> Any:
    _local.in_worker = True
    try:
        return fn()
    finally:
        _local.in_worker = False


def run_parallel(tasks: Mapping[str, Callable[[], Any]]) -> dict[str, Any]:
    """Run zero-argument callables concurrently; results by name, first error raised.

    The callables run without a Flask context: give them a client made in the request
    (its CallStats travels with it), not anything that reads flask.g or current_app.
    """
    # A task that itself runs tasks would wait on the pool it occupies: run those inline.
    if len(tasks) <= 1 or getattr(_local, "in_worker", False):
        return {name: fn() for name, fn in tasks.items()}
    futures = _submit(tasks)
    done, pending = wait(futures.values(), return_when=FIRST_EXCEPTION)
    _raise_first(futures, done, pending)
    return {name: future.result() for name, future in futures.items()}


def read_every(client: Any, list_page: Callable, params: dict, limit: int,
               page_size: int) -> list[dict] | None:
    """Every record a list filter finds, its pages read side by side; None past `limit`.

    Pages are numbered and ordered by id, so no record is read twice or missed. The page
    count comes from the first page's real length, so an API that serves fewer rows than
    asked is still read whole; a list without a count is followed by its `next` links.
    """
    base = {key: value for key, value in params.items() if key not in ("page", "cursor")}
    base.update(ordering="id", page_size=page_size)
    first = list_page(client, {**base, "page": 1})
    if first.count is None:
        return _follow(client, list_page, base, first, limit)
    if first.count > limit:
        return None
    numbers = range(2, -(-first.count // (len(first.items) or page_size)) + 1)
    rest = run_parallel({str(n): partial(list_page, client, {**base, "page": n})
                         for n in numbers})
    return [*first.items, *(item for n in numbers for item in rest[str(n)].items)]


def _follow(client: Any, list_page: Callable, base: dict, page: Any,
            limit: int) -> list[dict] | None:
    """A list without a count: follow `next` one page after another up to `limit` rows."""
    items, number = list(page.items), 1
    while page.next:
        if len(items) > limit:
            return None
        number += 1
        page = list_page(client, {**base, "page": number})
        items += page.items
    return items if len(items) <= limit else None


def run_until(tasks: Mapping[str, Callable[[], Any]],
              deadline: float) -> tuple[dict[str, Any], set[str]]:
    """Run callables concurrently until deadline (time.monotonic()): (results, names unfinished).

    The first error among finished tasks is raised. Unfinished tasks run on in the pool and
    their results are dropped. The callables follow run_parallel's rule on Flask contexts.
    """
    if getattr(_local, "in_worker", False):
        return {name: fn() for name, fn in tasks.items()}, set()
    futures = _submit(tasks)
    done, pending = wait(futures.values(), timeout=max(0.0, deadline - time.monotonic()),
                         return_when=FIRST_EXCEPTION)
    _raise_first(futures, done, pending)
    finished = {name: future.result() for name, future in futures.items() if future in done}
    return finished, set(futures) - set(finished)


def once(read: Callable[[], Any]) -> Callable[[], Any]:
    """read's result, read by the first caller; callers meanwhile wait for that one read. A
    failed read fails every caller the same way: it is not tried again (in a 429 storm each
    caller would wait out the retries anew)."""
    lock, found = threading.Lock(), []

    def call():
        with lock:
            if not found:
                try:
                    found.append((read(), None))
                except Exception as exc:  # noqa: BLE001 (re-raised to every caller)
                    found.append((None, exc))
        value, error = found[0]
        if error is not None:
            raise error
        return value
    return call


def _submit(tasks: Mapping[str, Callable[[], Any]]) -> dict[str, Future]:
    return {name: _executor().submit(_in_worker, fn) for name, fn in tasks.items()}


def _raise_first(futures: dict[str, Future], done: set, pending: set) -> None:
    failed = [f for f in futures.values() if f in done and f.exception() is not None]
    if failed:
        for future in pending:
            future.cancel()
        raise failed[0].exception()




PARTS = {
    "currencies": _l("currencies"),
    "ledger_numbers": _l("ledger numbers"),
    "vat_categories": _l("VAT categories"),
    "stornos": _l("cancellation state"),
    "named": _l("cancellation state"),  # the stornos naming a live document
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


# -- per-request accounting of upstream calls, and the Server-Timing header -----------------------

G_STATS = "upstream_stats"
READS = frozenset({"GET", "HEAD", "OPTIONS"})
G_STARTED = "upstream_request_started"


@dataclass(frozen=True)
class Call:
    """One upstream attempt: what was asked, what came back, how long it took."""

    method: str
    path: str
    status: int | None
    ms: float
    request_id: str | None = None
    error: str | None = None


class CallStats:
    """Thread-safe tally of upstream calls; one per Flask request (or per script)."""

    def __init__(self, request_id: str | None = None) -> None:
        self.request_id = request_id
        self._calls: list[Call] = []
        self._lock = threading.Lock()

    def record(self, call: Call) -> None:
        """Add one finished call."""
        with self._lock:
            self._calls.append(call)

    @property
    def calls(self) -> list[Call]:
        """A copy of the calls so far, in completion order."""
        with self._lock:
            return list(self._calls)

    @property
    def may_have_stored(self) -> bool:
        """Whether a write so far may have changed the books: one that got no answer, or any
        answer but a 4xx refusal (a write refused with 400, 401, 403 or 429 stored nothing)."""
        return any(call.method not in READS and not 400 <= (call.status or 0) < 500
                   for call in self.calls)

    @property
    def count(self) -> int:
        """Number of upstream calls (every retry attempt counts)."""
        return len(self.calls)

    @property
    def total_ms(self) -> float:
        """Sum of the calls' durations (parallel calls overlap, so this can exceed wall time)."""
        return sum(call.ms for call in self.calls)

    def server_timing(self) -> str:
        """The ``upstream`` Server-Timing entry, e.g. ``upstream;dur=12.3;desc="2 calls"``."""
        count = self.count
        noun = "call" if count == 1 else "calls"
        return f'upstream;dur={self.total_ms:.1f};desc="{count} {noun}"'

    def __repr__(self) -> str:
        return f"CallStats(count={self.count}, total_ms={self.total_ms:.1f})"


def current_stats() -> CallStats:
    """The current request's CallStats (created on flask.g), or a fresh one outside Flask."""
    if not has_app_context():
        return CallStats()
    if G_STATS not in g:
        setattr(g, G_STATS, CallStats(request_id=g.get("request_id")))
    return getattr(g, G_STATS)


def init_app(app: Flask) -> None:
    """Time every request and add Server-Timing (upstream + app) to every response."""
    # First in line, so the app timing covers every other before_request hook.
    app.before_request_funcs.setdefault(None, []).insert(0, _start_timer)
    app.after_request(_add_server_timing)


def _start_timer() -> None:
    setattr(g, G_STARTED, time.perf_counter())


def _add_server_timing(response: Response) -> Response:
    stats = g.get(G_STATS) or CallStats()
    entries = [stats.server_timing()]
    started = g.get(G_STARTED)
    if started is not None:
        entries.append(f'app;dur={(time.perf_counter() - started) * 1000:.1f};desc="total"')
    existing = response.headers.get("Server-Timing")
    response.headers["Server-Timing"] = ", ".join([existing, *entries] if existing else entries)
    return response
