"""run_parallel and run_until: concurrent, results by name, first error raised, safe to nest."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.upstream import NotFound, run_parallel, run_until
from app.upstream.parallel import read_every
from app.upstream.responses import Page


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


def test_run_until_returns_what_finished_by_the_deadline_and_names_the_rest():
    release = threading.Event()
    started = time.monotonic()
    found, unfinished = run_until({"quick": lambda: 1, "slow": lambda: release.wait(2.0)},
                                  started + 0.3)
    release.set()
    assert found == {"quick": 1} and unfinished == {"slow"}
    assert 0.3 <= time.monotonic() - started < 1.0


def test_run_until_returns_as_soon_as_everything_is_done():
    started = time.monotonic()
    found, unfinished = run_until({"a": lambda: "a", "b": lambda: "b"}, started + 5.0)
    assert found == {"a": "a", "b": "b"} and unfinished == set()
    assert time.monotonic() - started < 0.5


def test_run_until_raises_the_first_error_before_the_deadline():
    def fail():
        raise NotFound("gone", status=404)

    started = time.monotonic()
    with pytest.raises(NotFound, match="gone"):
        run_until({"slow": lambda: time.sleep(1.0), "bad": fail}, started + 5.0)
    assert time.monotonic() - started < 0.9


def _served(records: list[dict], served: int, counted: bool):
    """A list reader over `records` that serves at most `served` rows a page, whatever is
    asked, with or without a count (a cursor-like list follows `next`)."""
    asked = []

    def list_page(_client, params):
        asked.append(params)
        start = (params["page"] - 1) * served
        rows = records[start:start + served]
        more = start + served < len(records)
        return Page(rows, len(records) if counted else None, "next" if more else None)
    return list_page, asked


@settings(max_examples=60, deadline=None)
@given(total=st.integers(0, 60), served=st.integers(1, 12), asked=st.integers(1, 12),
       counted=st.booleans(), limit=st.integers(0, 60))
def test_read_every_returns_each_record_once_or_none_past_the_limit(total, served, asked,
                                                                   counted, limit):
    records = [{"id": n} for n in range(1, total + 1)]
    list_page, calls = _served(records, min(served, asked), counted)
    found = read_every(None, list_page, {"page": 7, "cursor": "x", "q": "a"}, limit, asked)
    assert found == (records if total <= limit else None)
    assert all(call["ordering"] == "id" and call["q"] == "a" and "cursor" not in call
               for call in calls)
