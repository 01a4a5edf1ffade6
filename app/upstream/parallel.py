"""Independent upstream reads for one page, run side by side on a small shared pool."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any

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
    futures: dict[str, Future] = {
        name: _executor().submit(_in_worker, fn) for name, fn in tasks.items()
    }
    done, pending = wait(futures.values(), return_when=FIRST_EXCEPTION)
    failed = [f for f in futures.values() if f in done and f.exception() is not None]
    if failed:
        for future in pending:
            future.cancel()
        raise failed[0].exception()
    return {name: future.result() for name, future in futures.items()}
