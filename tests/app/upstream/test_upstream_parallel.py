"""run_parallel: concurrent, results by name, first error raised, safe to nest."""

from __future__ import annotations

import threading
import time

import pytest

from app.upstream import NotFound, run_parallel


def test_results_come_back_by_name_and_run_concurrently():
    barrier = threading.Barrier(3, timeout=2)

    def task(value):
        barrier.wait()  # only passes when all three run at the same time
        return value

    results = run_parallel({name: (lambda v=name: task(v)) for name in ("a", "b", "c")})
    assert results == {"a": "a", "b": "b", "c": "c"}


def test_the_first_error_is_raised_and_pending_work_is_dropped():
    started = time.monotonic()

    def fail():
        raise NotFound("gone", status=404)

    with pytest.raises(NotFound, match="gone"):
        run_parallel({"slow": lambda: time.sleep(1.0), "bad": fail})
    assert time.monotonic() - started < 0.9


def test_nested_calls_run_inline_instead_of_deadlocking_the_pool():
    def outer(i):
        return run_parallel({f"{i}-{j}": (lambda v=j: v) for j in range(3)})

    results = run_parallel({str(i): (lambda i=i: outer(i)) for i in range(8)})
    assert results["7"] == {"7-0": 0, "7-1": 1, "7-2": 2}


def test_zero_and_one_task_run_in_the_calling_thread():
    assert run_parallel({}) == {}
    assert run_parallel({"only": threading.current_thread}) == {"only": threading.current_thread()}
