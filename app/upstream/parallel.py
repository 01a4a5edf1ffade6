"""A page's upstream reads, side by side, within the page's time budget.

Independent upstream reads for one page, run side by side on a small shared pool.

A page's time budget: its reads run side by side until PAGE_DEADLINE_SECONDS have passed.

Past the deadline a page renders what arrived: optional reads that did not are named in a
message (templates/_missing.html), a required read that did not gives a friendly error page.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any

from flask import current_app, g
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
