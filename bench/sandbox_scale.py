"""Sandbox scale benchmark: a company with 100,000 incomes behind a real loopback server.

    python -m bench.sandbox_scale [--incomes 100000] [--requests 200] [--db PATH]

Builds the database in bulk (SQLAlchemy Core), starts sandbox.core.server.start on it, times every
scenario with a keep-alive client and prints median / p95 / max. It asserts nothing; the target
for the income page with a date filter is a median under 50 ms.

Extending it (e.g. for /2/expenses): append a populator to POPULATORS (it gets the session, the
company, a Random and the --incomes count) and Scenario rows to SCENARIOS (a name and a function
that returns the path with query for a Random and the BenchData).
"""
from __future__ import annotations

import argparse
import logging
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import requests
from sqlalchemy import text

from sandbox import create_app
from sandbox.core.server import db_url_for, start

from .sandbox_data import TOKEN, BenchData, build_company, populate_incomes

MONTH = 30


@dataclass
class Scenario:
    """One timed request shape: a name and a path builder."""

    name: str
    path: Callable[[random.Random, BenchData], str]
    samples: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)


def _window(rng: random.Random, data: BenchData, days: int) -> tuple[date, date]:
    start = data.today - timedelta(days=rng.randint(days, data.span_days))
    return start, start + timedelta(days=days - 1)


def _dated(days: int, extra: str = "", field_name: str = "issued_at"):
    def path(rng: random.Random, data: BenchData) -> str:
        low, high = _window(rng, data, days)
        return (f"/1/incomes?page_size=100&from_date={low}&to_date={high}"
                f"&date_field={field_name}{extra}")
    return path


POPULATORS: list[Callable] = [populate_incomes]
SCENARIOS: list[Scenario] = [
    Scenario("incomes: 1 month by issued_at, page 1", _dated(MONTH)),
    Scenario("incomes: 1 month by issued_at, page 3", _dated(MONTH, "&page=3")),
    Scenario("incomes: 1 quarter by fulfilled_at, -gross_amount",
             _dated(3 * MONTH, "&ordering=-gross_amount", "fulfilled_at")),
    Scenario("incomes: review queue (needs review, not done)",
             lambda rng, data: "/1/incomes?page_size=50&needs_review=true&review_done=false"),
    Scenario("incomes: 1 year, search partner name", _dated(365, "&search=Duna")),
    Scenario("income detail", lambda rng, data: f"/1/incomes/{rng.randint(1, data.incomes)}/"),
]


def build(db_path: str, count: int, rng: random.Random) -> BenchData:
    """Create the schema, the company and every populator's rows; then ANALYZE."""
    app = create_app(db_url_for(db_path), seed="empty")
    maker = app.extensions["sandbox_sessionmaker"]
    with maker() as session, session.begin():
        data = build_company(session, rng)
        for populate in POPULATORS:
            populate(session, data, rng, count)
    with app.extensions["sandbox_engine"].begin() as conn:
        conn.execute(text("ANALYZE"))
    app.extensions["sandbox_engine"].dispose()
    return data


def run(base: str, data: BenchData, rounds: int, rng: random.Random) -> None:
    """Time every scenario: a few warm-up requests, then `rounds` measured ones."""
    client = requests.Session()
    client.headers.update({"Authorization": f"Token {TOKEN}", "Accept": "application/json"})
    for scenario in SCENARIOS:
        mark = _last_seq(client, base)
        for index in range(rounds + 5):
            url = base + scenario.path(rng, data)
            started = time.perf_counter()
            resp = client.get(url, timeout=30)
            elapsed = (time.perf_counter() - started) * 1000
            resp.raise_for_status()
            if index >= 5:
                scenario.samples.append(elapsed)
                scenario.counts.append(resp.json().get("count", 1))
        logged = client.get(f"{base}/_sandbox/requests/?since={mark}", timeout=30).json()
        scenario.server = [r["duration_ms"] for r in logged["requests"]][5:]


def _last_seq(client: requests.Session, base: str) -> int:
    items = client.get(f"{base}/_sandbox/requests/", timeout=30).json()["requests"]
    return items[-1]["seq"] if items else 0


def report(data: BenchData, built_s: float) -> None:
    """Print the table."""
    print(f"\nSandbox scale: {data.incomes:,} incomes, {data.partners} partners, "
          f"built in {built_s:.1f} s")
    print("client = wall time seen by the HTTP client; server = the sandbox's own request log")
    print(f"{'scenario':<52}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}"
          f"{'server median':>15}{'rows':>8}")
    for s in SCENARIOS:
        ordered = sorted(s.samples)
        p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
        server = statistics.median(s.server) if s.server else float("nan")
        print(f"{s.name:<52}{len(ordered):>5}{statistics.median(ordered):>11.1f}"
              f"{p95:>9.1f}{ordered[-1]:>9.1f}{server:>15.1f}"
              f"{int(statistics.median(s.counts)):>8}")


def main(argv: list[str] | None = None) -> None:
    """Build, serve, time, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incomes", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--db", help="SQLite file to build (default: a temporary one)")
    args = parser.parse_args(argv)
    rng = random.Random(20261121)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = args.db or str(Path(tmp) / "scale.db")
        started = time.perf_counter()
        data = build(db_path, args.incomes, rng)
        built_s = time.perf_counter() - started
        server, base = start(port=0, db_path=db_path, seed="empty")
        try:
            run(base, data, args.requests, rng)
        finally:
            server.shutdown()
        report(data, built_s)


if __name__ == "__main__":
    main()
