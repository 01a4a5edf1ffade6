"""Review step cost: "done and next" on the review screen, as a reviewer repeats it all day.

    python -m bench.review_step [--steps 10] [--latency-ms 50 150] [--think-ms 400]

The sandbox (demo data plus extra incomes waiting for review) runs in its own process and
delays every API call (fault injection, kind=latency). Bookdesk runs in this process on a real
loopback port, signed in as demo-bookkeeper. Each scenario opens the review screen (not timed),
then presses "done" --steps times through htmx, pausing --think-ms between steps like a reviewer
reading the next income. Per step it reports, from the sandbox's request log: the writes and
reads made while the step's request was open (critical path), the reads made ahead of time
(background prefetch, not waited for), and Bookdesk's server time from Server-Timing.

The design choice it measures: the upstream has no conditional write, so "done" does not read
the income before writing; it sends the PATCH and compares the record the PATCH returns with
what the reviewer saw (a change found there withdraws the flag with a second write and shows
the reviewer what changed). "Save and done" sends the reviewer's own edits, so it reads first
(one read + one write) to never overwrite someone else's change; it is measured as well. A
"no think time" row shows what happens when the reviewer is faster than the prefetch.
Prints a table; asserts nothing.
"""
from __future__ import annotations

import argparse
import re
import time
from dataclasses import dataclass, field
from itertools import pairwise

import requests

from bench.common import (
    add_fault,
    machine,
    percentile,
    server_timing,
    signed_in,
    start_bookdesk,
    start_sandbox,
    table,
)

COMPANY = 1
BASE = f"/c/{COMPANY}/review/"
_FORM = re.compile(r'<form class="review-form[^>]*hx-post="([^"]+)"')


@dataclass
class Row:
    """Measurements of one scenario."""

    name: str
    latency_ms: int
    think_ms: int
    action: str
    writes: list[int] = field(default_factory=list)
    reads: list[int] = field(default_factory=list)
    background: list[int] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)


class SandboxLog:
    """The sandbox's request log, read over HTTP (Bookdesk's calls only)."""

    def __init__(self, url: str):
        self.url = url

    def mark(self) -> int:
        """The latest sequence number."""
        items = requests.get(f"{self.url}/_sandbox/requests/", timeout=30).json()["requests"]
        return items[-1]["seq"] if items else 0

    def since(self, seq: int) -> list[dict]:
        """Bookdesk's requests after seq."""
        rows = requests.get(f"{self.url}/_sandbox/requests/?since={seq}",
                            timeout=30).json()["requests"]
        return [r for r in rows if r["headers"].get("X-Application", "").startswith("bookdesk")]


def add_waiting(sandbox_url: str, count: int) -> None:
    """More incomes waiting for review in the demo company (fixture maker, no latency)."""
    for number in range(count):
        response = requests.post(f"{sandbox_url}/_sandbox/incomes/", timeout=30, json={
            "company_id": COMPANY, "type": 2, "needs_review": True,
            "invoice_number": f"BENCH-{number:04d}", "partner_name": "Bench Partner Kft."})
        response.raise_for_status()


def form_data(html: str, action: str) -> tuple[str, list[tuple[str, str]]]:
    """The review form's URL and what htmx sends for the pressed button."""
    from tests.app.incomes_helpers import BrowserForm

    match = _FORM.search(html)
    if match is None:
        raise RuntimeError("no review form in the response")
    return match.group(1).replace("&amp;", "&"), [
        *BrowserForm(html[match.start():]).pairs, ("action", action)]


def run(bookdesk_url: str, log: SandboxLog, row: Row, steps: int) -> Row:
    """Open the screen, then time `steps` presses of the row's action.

    A step's background reads are those made from its start until the next step starts (they
    run while the reviewer reads the next income).
    """
    http = signed_in(bookdesk_url, "demo-bookkeeper")
    queue = http.get(bookdesk_url + BASE, timeout=60).text
    first = re.search(rf'href="({BASE}\d+)"', queue).group(1)
    html = http.get(bookdesk_url + first, timeout=60).text
    marks = []
    for _number in range(steps):
        time.sleep(row.think_ms / 1000)
        url, data = form_data(html, row.action)
        marks.append(log.mark())
        response = http.post(bookdesk_url + url, data=data, timeout=60,
                             headers={"HX-Request": "true", "HX-Target": "review-item"})
        if response.status_code != 200:
            raise RuntimeError(f"step answered {response.status_code}")
        _count(row, log.since(marks[-1]), response)
        html = response.text
    time.sleep(row.think_ms / 1000 + row.latency_ms * 4 / 1000)
    marks.append(log.mark())
    row.background = [_prefetched(log.since(low), high) for low, high in pairwise(marks)]
    return row


def _prefetched(entries: list[dict], until: int) -> int:
    return sum(1 for r in entries if r["seq"] <= until
               and r["headers"]["X-Application"].endswith("prefetch"))


def _count(row: Row, during: list[dict], response: requests.Response) -> None:
    own = [r for r in during if not r["headers"]["X-Application"].endswith("prefetch")]
    row.writes.append(sum(1 for r in own if r["method"] != "GET"))
    row.reads.append(sum(1 for r in own if r["method"] == "GET"))
    timing = server_timing(response)
    row.server_ms.append(timing.app_ms)
    row.calls.append(timing.calls)


def cells(row: Row) -> list:
    """One table row."""
    mean = lambda values: sum(values) / len(values)  # noqa: E731
    return [row.name, row.latency_ms, row.think_ms, len(row.server_ms),
            f"{mean(row.writes):.2f}", f"{mean(row.reads):.2f}", f"{mean(row.calls):.2f}",
            f"{mean(row.background):.2f}", f"{percentile(row.server_ms, 50):.1f}",
            f"{percentile(row.server_ms, 95):.1f}"]


def scenarios(latencies: list[int], think_ms: int) -> list[Row]:
    """Done and next per latency, one without think time, one save and done."""
    rows = [Row("done and next", latency, think_ms, "done") for latency in latencies]
    rows.append(Row("done and next, no think time", latencies[0], 0, "done"))
    rows.append(Row("save and done (reads first)", latencies[0], think_ms, "save_done"))
    return rows


def main() -> None:
    """Run every scenario and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--latency-ms", type=int, nargs="+", default=[50, 150])
    parser.add_argument("--think-ms", type=int, default=400)
    args = parser.parse_args()
    sandbox = start_sandbox(latency_ms=0)
    bookdesk = start_bookdesk(sandbox.url)
    rows = scenarios(args.latency_ms, args.think_ms)
    try:
        add_waiting(sandbox.url, args.steps * len(rows) + 10)
        log = SandboxLog(sandbox.url)
        for row in rows:
            requests.delete(f"{sandbox.url}/_sandbox/faults/", timeout=30).raise_for_status()
            add_fault(sandbox.url, path="/[12]/*", kind="latency", latency_ms=row.latency_ms)
            run(bookdesk.url, log, row, args.steps)
    finally:
        bookdesk.stop()
        sandbox.stop()
    print(f"Review step cost ({machine()}); every API call delayed by the latency shown.")
    print(table(["scenario", "latency ms", "think ms", "steps", "writes/step",
                 "reads/step (on the step)", "calls/step (Server-Timing)",
                 "reads ahead/step (background)", "server ms p50", "server ms p95"],
                [cells(row) for row in rows]))


if __name__ == "__main__":
    main()
