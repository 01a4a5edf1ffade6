"""Scale benchmark: GET /2/expenses over 100,000 expenses, pages of 100, filtered.

Run: .venv/bin/python bench/sandbox_scale_expenses.py [--rows 100000] [--repeat 40]
Fills a temporary SQLite sandbox in bulk, starts it on a free port, times each scenario over
real HTTP (client wall time and the sandbox's own request-log duration) and prints a table.
Exits 1 when the headline scenario's median is 50 ms or more.
"""
from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import requests
from sqlalchemy import insert

from sandbox import create_app
from sandbox.core.server import db_url_for
from sandbox.expenses.model import Expense, ExpenseAssignment

HEADLINE = "is_paid=false"
LIMIT_MS = 50.0
SCENARIOS = (HEADLINE, "", "is_installment=true", "search=raktár", "search=inv-000123",
             "min_amount=100000",
             "date_field=created_at&from_date={recent}", "updated_since={recent}T00:00:00Z")
CUSTOM = ({"Költséghely": "KH-01 Iroda"}, {"Költséghely": "KH-02 Raktár"}, {})


def fill(db_path: str, rows: int) -> str:
    """Create a company with `rows` expenses (one assignment each); returns its admin token."""
    app = create_app(db_url_for(db_path))
    made = app.test_client().post("/_sandbox/companies/", json={}).get_json()
    engine = app.extensions["sandbox_engine"]
    rng, now = random.Random(7), datetime.now(UTC).replace(tzinfo=None)
    with engine.begin() as conn:
        for start_at in range(0, rows, 10_000):
            batch = [_row(made["id"], n, rng, now) for n in range(start_at,
                                                                  min(rows, start_at + 10_000))]
            conn.execute(insert(Expense.__table__), [e for e, _ in batch])
            conn.execute(insert(ExpenseAssignment.__table__), [a for _, a in batch])
        conn.exec_driver_sql("ANALYZE")
    engine.dispose()
    return made["tokens"]["admin"]


def _row(company_id: int, n: int, rng: random.Random, now: datetime) -> tuple[dict, dict]:
    created = now - timedelta(minutes=(100_000 - n) * 5)
    gross = Decimal(rng.randint(1_000, 400_000))
    custom = CUSTOM[n % 3]
    expense = {"id": n + 1, "company_id": company_id, "currency_id": 1,
               "invoice_number": f"INV-{n:06d}", "filing_number": f"K-{n:06d}",
               "issued_at": created.date(), "created_at": created,
               "updated_at": created + timedelta(days=rng.randint(0, 30)),
               "paid_status": rng.choices((1, 2, 3), (25, 60, 15))[0], "total_gross": gross,
               "exchange_rate": Decimal(1), "net_amount": 0, "vat_amount": 0,
               "gross_amount": 0, "payment_method": "transfer", "vat_area": "HU", "note": "",
               "secondary_id": "", "source": "manual", "processed": False, "checked": False,
               "booked": False, "excluded_from_accounting": False, "custom_fields": custom,
               "search_text": "\n".join([f"inv-{n:06d}", *custom.values()]).casefold()}
    net = (gross / Decimal("1.27")).quantize(Decimal("0.01"))
    assignment = {"expense_id": n + 1, "net_amount": net, "vat_amount": gross - net,
                  "gross_amount": gross, "job_number": ""}
    return expense, assignment


def serve(db_path: str) -> tuple[subprocess.Popen, str]:
    """The sandbox on db_path in its own process (no GIL shared with the client)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = ("import logging; logging.getLogger('werkzeug').setLevel(logging.WARNING); "
            f"from sandbox.core.server import run; run(port={port}, db_path={db_path!r})")
    process = subprocess.Popen([sys.executable, "-c", code])
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            requests.get(f"{base}/_sandbox/health/", timeout=1).raise_for_status()
            return process, base
        except requests.RequestException:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the sandbox did not start")


def measure(base: str, token: str, query: str, repeat: int) -> tuple[list[float], int]:
    """Client wall times (ms) of `repeat` GETs of one page of 100, and the rows it returned."""
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"
    url = f"{base}/2/expenses?page_size=100" + (f"&{query}" if query else "")
    times, count = [], 0
    for _ in range(repeat + 2):
        started = time.perf_counter()
        resp = session.get(url, timeout=30)
        times.append((time.perf_counter() - started) * 1000)
        resp.raise_for_status()
        count = len(resp.json()["results"]["expenses"])
    return times[2:], count


def server_ms(base: str, since: int) -> list[float]:
    """Durations the sandbox logged for /2/expenses requests after sequence number since."""
    rows = requests.get(f"{base}/_sandbox/requests/?since={since}", timeout=30).json()
    return [r["duration_ms"] for r in rows["requests"] if r["path"].startswith("/2/expenses")]


def _last_seq(base: str) -> int:
    rows = requests.get(f"{base}/_sandbox/requests/", timeout=30).json()["requests"]
    return rows[-1]["seq"] if rows else 0


def main() -> int:
    """Fill, serve, time every scenario, print the table; non-zero exit above the limit."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--rows", type=int, default=100_000)
    args.add_argument("--repeat", type=int, default=40)
    opts = args.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = str(Path(tmp) / "scale.db")
        started = time.perf_counter()
        token = fill(db_path, opts.rows)
        print(f"filled {opts.rows:,} expenses in {time.perf_counter() - started:.1f} s")
        server, base = serve(db_path)
        try:
            headline = _report(base, token, opts.repeat)
        finally:
            server.terminate()
            server.wait(timeout=10)
    ok = headline < LIMIT_MS
    print(f"\nheadline '{HEADLINE}' median {headline:.1f} ms: {'OK' if ok else 'TOO SLOW'} "
          f"(limit {LIMIT_MS:.0f} ms)")
    return 0 if ok else 1


def _report(base: str, token: str, repeat: int) -> float:
    recent = (datetime.now(UTC) - timedelta(days=20)).date().isoformat()
    print(f"\n{'scenario (page_size=100)':44} {'rows':>5} {'median':>8} {'p95':>8} "
          f"{'server':>8}")
    headline = 0.0
    for template in SCENARIOS:
        query = template.format(recent=recent)
        mark = _last_seq(base)
        times, rows = measure(base, token, query, repeat)
        median = statistics.median(times)
        p95 = sorted(times)[int(len(times) * 0.95) - 1]
        server = statistics.median(server_ms(base, mark)[2:] or [0.0])
        print(f"{query or '(no filter)':44} {rows:>5} {median:>6.1f}ms {p95:>6.1f}ms "
              f"{server:>6.1f}ms")
        headline = median if template == HEADLINE else headline
    return headline


if __name__ == "__main__":
    sys.exit(main())
