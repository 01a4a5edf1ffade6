"""Page cost: upstream calls, upstream time, server time and Bookdesk's own overhead per page.

    python -m bench.page_cost [--iterations 100] [--latency-ms 50] [--only "incomes list"]

The sandbox (demo data) delays every API call by --latency-ms; Bookdesk runs in this process on
a real loopback port, signed in as demo-admin. Each scenario runs a couple of warm-up requests
(catalogue cache warm), then --iterations timed ones (the review step at most 40: each one
clears an income from the demo queue of 44); figures come from Bookdesk's own
Server-Timing header (upstream;dur = sum of the calls, app;dur = whole request). A page whose
reads run side by side can take less wall time than the sum of its calls, so "overhead" (total
minus upstream) goes negative there; "total / slowest call" (p50) divides each request's total
by the sandbox-side time of its slowest call (the sandbox's request log, matched by request id):
about 1 means the page waited for one round trip, the slowest, and no more; 2 means two
sequential waits. (A review step's background read-ahead carries the step's id too, and is
counted.) The last column compares one call's mean time as Bookdesk measured
it with the sandbox's own time for it (its request log, latency included): when both are well
above the latency, the sandbox itself is the slow side. Prints a table; asserts nothing.
Targets: overhead p95 < 15 ms for the list of 100 rows; about one round trip for a page whose
reads are independent.
"""
from __future__ import annotations

import argparse
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlsplit

import requests

from bench.common import (
    last_seq,
    machine,
    mean,
    percentile,
    sandbox_log,
    server_timing,
    signed_in,
    start_bookdesk,
    start_sandbox,
    table,
)
from tests.support.htmx import post_forms

COMPANY = 1
BASE = f"/c/{COMPANY}"
_INCOME_LINK = re.compile(rf'href="{BASE}/incomes/(\d+)"')


@dataclass
class Bench:
    """What a scenario needs: Bookdesk's URL and app, a signed-in session, the iteration."""

    url: str
    app: object
    http: requests.Session
    iteration: int = 0

    def get(self, path: str, **kwargs) -> requests.Response:
        """GET a Bookdesk path (redirects not followed)."""
        return self.http.get(self.url + path, timeout=60, allow_redirects=False, **kwargs)

    def has(self, endpoint: str) -> bool:
        """True when Bookdesk has this endpoint (the area has landed)."""
        return endpoint in self.app.view_functions


def first_income(bench: Bench) -> int:
    """The id of the first income on the list."""
    found = _INCOME_LINK.search(bench.get(f"{BASE}/incomes/").text)
    if found is None:
        raise RuntimeError("no income on the incomes list")
    return int(found.group(1))


def edit_save(bench: Bench) -> requests.Response:
    """Open the edit form (not timed), change the note, save (timed)."""
    income = first_income(bench)
    path = f"{BASE}/incomes/{income}/edit"
    form = next(f for f in post_forms(bench.get(path).text, path) if f.url.endswith("/edit"))
    values = [(k, f"bench note {bench.iteration}" if k == "note" else v) for k, v in form.values]
    return bench.http.post(bench.url + path, data=values, timeout=60, allow_redirects=False)


def review_done(bench: Bench) -> requests.Response:
    """Open the first review step (not timed) and press its done-and-next action (timed)."""
    queue = bench.get(f"{BASE}/review/")
    step = re.search(rf'href="({BASE}/review/\d+)"', queue.text)
    path = step.group(1) if step else f"{BASE}/review/"
    forms = [f for f in post_forms(bench.get(path).text, path)
             if urlsplit(f.url).path.endswith("/done")]
    if not forms:
        raise RuntimeError(f"no review action on {path}")
    # As the browser sends it: htmx swaps the next income in place.
    return bench.http.post(bench.url + forms[0].url, data=[*forms[0].values, ("action", "done")],
                           headers={"HX-Request": "true"}, timeout=60, allow_redirects=False)


# Timed runs a scenario can have at most: each review step clears one of the 44 demo items.
MAX_RUNS = {"review done-and-next": 40}


def _get(path_of: Callable[[Bench], str]) -> Callable[[Bench], requests.Response]:
    return lambda bench: bench.get(path_of(bench))


SCENARIOS: list[tuple[str, str, Callable[[Bench], requests.Response]]] = [
    ("dashboard", "dashboard.index", _get(lambda b: f"{BASE}/")),
    ("incomes list (100 rows)", "incomes.index",
     _get(lambda b: f"{BASE}/incomes/?page_size=100")),
    ("income detail", "incomes.detail",
     _get(lambda b: f"{BASE}/incomes/{first_income(b)}")),
    ("income edit save", "incomes.edit", edit_save),
    ("review queue (the 44 demo items)", "review.index", _get(lambda b: f"{BASE}/review/")),
    ("review done-and-next", "review.index", review_done),
    ("expenses list (100 rows)", "expenses.index",
     _get(lambda b: f"{BASE}/expenses/?page_size=100")),
    ("policy preview", "policy_editor.preview", _get(lambda b: f"{BASE}/policies/preview")),
    # Lists Bookdesk reads through itself: the partners in name order (collated whole), and
    # the year's revenue less void documents (the dashboard figure's list).
    ("partners by name", "partners.index", _get(lambda b: f"{BASE}/partners/?ordering=name")),
    ("revenue this year (not void)", "incomes.index",
     _get(lambda b: f"{BASE}/incomes/?cancelled=not_void&date_field=issued_at"
                    f"&date_from={date.today().year}-01-01&page_size=100")),
]


def measure(bench: Bench, run: Callable[[Bench], requests.Response], iterations: int,
            warmup: int = 2) -> tuple[list, list[str]]:
    """Timings and request ids of `iterations` runs after `warmup` untimed ones; a 4xx/5xx
    stops the run."""
    timings, ids = [], []
    for number in range(warmup + iterations):
        bench.iteration = number
        response = run(bench)
        if response.status_code >= 400:
            raise RuntimeError(f"{response.request.method} {response.url}: "
                               f"{response.status_code}")
        if number >= warmup:
            timings.append(server_timing(response))
            ids.append(response.headers.get("X-Request-Id", ""))
    return timings, ids


def slowest_calls(records: list[dict], ids: list[str]) -> list[float]:
    """Per timed request, the sandbox-side time of its slowest upstream call (the request id
    travels with every call Bookdesk makes for it)."""
    slowest: dict[str, float] = {}
    for record in records:
        key = (record.get("headers") or {}).get("X-Request-Id")
        if key:
            slowest[key] = max(slowest.get(key, 0.0), record["duration_ms"])
    return [slowest.get(key, math.nan) for key in ids]


def row(name: str, timings: list, slowest: list[float], sandbox_ms: float) -> list:
    """One table row: calls, upstream, total, overhead (p50/p95), the total in slowest calls
    (p50), and the mean time of one call as Bookdesk saw it and as the sandbox spent it."""
    def pair(values):
        return f"{percentile(values, 50):.1f} / {percentile(values, 95):.1f}"
    calls = sorted({t.calls for t in timings})
    total = [t.app_ms for t in timings]
    trips = percentile([t.app_ms / s for t, s in zip(timings, slowest, strict=True)
                        if s == s and s > 0], 50)
    return [name, len(timings),
            "-".join(map(str, (calls[0], calls[-1]))) if len(calls) > 1 else calls[0],
            pair([t.upstream_ms for t in timings]), pair(total),
            pair([t.overhead_ms for t in timings]), f"{trips:.2f}",
            f"{_per_call(timings)} / {sandbox_ms:.0f}"]


def _per_call(timings: list) -> str:
    # A page served from Bookdesk's cache calls nothing: it has no time per call.
    calls = sum(t.calls for t in timings)
    return f"{sum(t.upstream_ms for t in timings) / calls:.0f}" if calls else "-"


def main() -> None:
    """Run every scenario that exists and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--latency-ms", type=int, default=50)
    parser.add_argument("--only", default="", help="run the scenarios whose name has this text")
    args = parser.parse_args()
    sandbox = start_sandbox(args.latency_ms)
    server = start_bookdesk(sandbox.url)
    bench = Bench(server.url, server.server.app, signed_in(server.url))
    rows, started = [], time.perf_counter()
    for name, endpoint, run in SCENARIOS:
        if args.only not in name:
            continue
        if not bench.has(endpoint):
            rows.append([name, "", "not available", "", "", "", "", ""])
            continue
        mark = last_seq(sandbox.url)
        try:
            timings, ids = measure(bench, run, min(args.iterations, MAX_RUNS.get(name, 10**6)))
        except (RuntimeError, StopIteration) as exc:
            rows.append([name, "", f"failed: {exc or 'no form'}", "", "", "", "", ""])
            continue
        records = sandbox_log(sandbox.url, mark)
        spent = mean([r["duration_ms"] for r in records])
        rows.append(row(name, timings, slowest_calls(records, ids), spent))
    print(f"\nPage cost: up to {args.iterations} timed runs per page, {args.latency_ms} ms added "
          f"per upstream call, warm catalogue cache; {machine()}\n")
    print(table(["page / action", "runs", "upstream calls", "upstream ms p50 / p95",
                 "total ms p50 / p95", "overhead ms p50 / p95", "total / slowest call",
                 "one call ms: Bookdesk / sandbox"], rows))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    server.stop()
    sandbox.stop()


if __name__ == "__main__":
    main()
