"""Bookdesk CPU per request, and where it goes: list, detail, review and dashboard pages.

    python -m bench.cpu_profile [--iterations 60] [--top 12] [--only "incomes list"]

The sandbox (demo data, no added latency) runs in its own process; Bookdesk runs in this one
and is called through Flask's test client, so the process's CPU time around one request is
Bookdesk's own work: routing, session, upstream client and JSON decoding, forms, templates,
compression. The table gives CPU ms per request (median and p95 over --iterations, after
warm-up requests that fill the catalogue cache); then, per page, the functions with the most
own CPU under cProfile, which is what to remove. Prints tables; asserts nothing.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import (
    DEMO_NAME,
    DEMO_TOKEN,
    bookdesk_config,
    csrf_token,
    machine,
    percentile,
    start_sandbox,
    table,
)

BASE = "/c/1"
REPO = str(Path(__file__).resolve().parent.parent)
_INCOME = re.compile(rf'href="{BASE}/incomes/(\d+)"')
_STEP = re.compile(rf'href="({BASE}/review/\d+)"')

PAGES: list[tuple[str, Callable]] = [
    ("dashboard", lambda c: f"{BASE}/"),
    ("incomes list (100 rows)", lambda c: f"{BASE}/incomes/?page_size=100"),
    ("income detail", lambda c: f"{BASE}/incomes/{_first(c, _INCOME, '/incomes/')}"),
    ("review queue", lambda c: f"{BASE}/review/"),
    ("review step", lambda c: _first(c, _STEP, "/review/")),
    ("expenses list (100 rows)", lambda c: f"{BASE}/expenses/?page_size=100"),
    ("policy editor", lambda c: f"{BASE}/policies/"),
]


def _first(client, pattern: re.Pattern, path: str) -> str:
    found = pattern.search(client.get(BASE + path).get_data(as_text=True))
    if found is None:
        raise RuntimeError(f"nothing to open on {path}")
    return found.group(1)


def _signed_in_client(upstream_url: str):
    from app import create_app

    app = create_app(bookdesk_config(upstream_url))
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    response = client.post("/login", data={"csrf_token": csrf_token(page), "token": DEMO_TOKEN,
                                           "name": DEMO_NAME, "company_id": "1"})
    if response.status_code != 303:
        raise RuntimeError(f"sign-in failed: {response.status_code}")
    return client


def _cpu_ms(client, path: str) -> float:
    start = time.process_time()
    response = client.get(path, headers={"Accept-Encoding": "br, gzip"})
    spent = (time.process_time() - start) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"{path}: {response.status_code}")
    return spent


def _profile(client, path: str, iterations: int, top: int) -> list[list]:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(iterations):
        client.get(path, headers={"Accept-Encoding": "br, gzip"})
    profiler.disable()
    stats = pstats.Stats(profiler).sort_stats("tottime")
    rows = []
    for func in stats.fcn_list[:top]:
        _calls, ncalls, tottime, cumtime, _ = stats.stats[func]
        where = f"{func[0].replace(REPO + '/', '')}:{func[1]} {func[2]}"
        rows.append([where[-70:], ncalls // iterations, f"{tottime * 1000 / iterations:.2f}",
                     f"{cumtime * 1000 / iterations:.2f}"])
    return rows


def main() -> None:
    """Measure every page, then profile each; print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--only")
    args = parser.parse_args()
    sandbox = start_sandbox(latency_ms=0)
    try:
        client = _signed_in_client(sandbox.url)
        pages = [(name, path_of(client)) for name, path_of in PAGES
                 if not args.only or args.only in name]
        summary, profiles = [], []
        for name, path in pages:
            for _ in range(3):
                _cpu_ms(client, path)
            spent = [_cpu_ms(client, path) for _ in range(args.iterations)]
            summary.append([name, f"{percentile(spent, 50):.1f}", f"{percentile(spent, 95):.1f}"])
            profiles.append((name, _profile(client, path, max(10, args.iterations // 3),
                                            args.top)))
    finally:
        sandbox.stop()
    print(f"Bookdesk CPU per request ({machine()}; {args.iterations} requests per page)\n")
    print(table(["page", "CPU ms p50", "CPU ms p95"], summary))
    for name, rows in profiles:
        print(f"\n{name}: most own CPU per request (cProfile)\n")
        print(table(["function", "calls", "own ms", "cumulative ms"], rows))


if __name__ == "__main__":
    main()
