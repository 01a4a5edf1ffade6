"""Export benchmark: the income list exported as CSV and as XLSX from a sandbox of 10,000 incomes.

    python -m bench.export [--incomes 10000] [--db PATH]

Builds the sandbox database in bulk (as bench/sandbox_scale.py does), serves it from a separate
process on loopback (so its memory is not counted), then downloads each export through
Bookdesk's app with a test client, reading the streamed body chunk by chunk as a browser would.
For each format and for two filters (the whole list and about a tenth of it) it prints rows,
seconds, the Python heap peak during the download (tracemalloc) and the growth of the process's
peak RSS. Flat memory shows as the same peak for a tenth and for all rows. It asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import io
import logging
import multiprocessing
import random
import re
import socket
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import openpyxl
import requests

from app import create_app
from sandbox.core.server import run as serve

from .sandbox_data import TOKEN, BenchData
from .sandbox_scale import build

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@dataclass
class Result:
    """One measured download."""

    fmt: str
    scope: str
    rows: int
    seconds: float
    heap_peak: int
    rss_growth: int


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_sandbox(db_path: str) -> tuple[multiprocessing.Process, str]:
    """The sandbox on the built database, in its own process; returns it and its base URL."""
    port = _free_port()
    process = multiprocessing.get_context("fork").Process(
        target=serve, kwargs={"port": port, "db_path": db_path}, daemon=True)
    process.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            requests.get(base + "/_sandbox/requests/", timeout=1)
            return process, base
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("the sandbox did not start")


def signed_in_client(base: str, instance: str, company_id: int):
    """A Bookdesk test client signed in to the bench company with its admin token."""
    app = create_app({"SECRET_KEY": "bench", "UPSTREAM_URL": base, "INSTANCE_PATH": instance,
                      "STATIC_BUILD_DIR": str(Path(instance) / "static")})
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    response = client.post("/login", data={"csrf_token": CSRF.search(page).group(1),
                                           "token": TOKEN, "name": "Bench",
                                           "company_id": str(company_id)})
    if response.status_code != 303:
        raise RuntimeError(f"sign-in failed: {response.status_code}")
    return client


def _rss_peak() -> int:
    text = Path("/proc/self/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) * 1024


def _reset_rss_peak() -> None:
    with contextlib.suppress(OSError):  # Linux: "5" resets the peak RSS (VmHWM) to now
        Path("/proc/self/clear_refs").write_text("5")


def measure(client, url: str, fmt: str, scope: str) -> Result:
    """Download one export chunk by chunk to a file; time, heap peak, peak RSS growth, rows."""
    _reset_rss_peak()
    rss_before = _rss_peak()
    with tempfile.TemporaryFile() as saved:
        tracemalloc.start()
        started = time.perf_counter()
        response = client.get(url, buffered=False)
        _check_download(response, fmt, url)
        for chunk in response.response:
            saved.write(chunk)
        response.close()
        seconds = time.perf_counter() - started
        heap_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rss_growth = _rss_peak() - rss_before
        saved.seek(0)
        rows = _rows(fmt, saved)
    return Result(fmt, scope, rows, seconds, heap_peak, rss_growth)


def _check_download(response, fmt: str, url: str) -> None:
    """A redirect or an error page must not be timed and counted as an export."""
    expected = "spreadsheetml" if fmt == "xlsx" else "text/csv"
    if response.status_code != 200 or expected not in response.mimetype:
        raise RuntimeError(f"{url}: {response.status_code} {response.mimetype}")


def _rows(fmt: str, saved) -> int:
    if fmt == "xlsx":
        sheet = openpyxl.load_workbook(saved, read_only=True).active
        return sum(1 for _ in sheet.iter_rows(min_row=2, values_only=True))
    text = io.TextIOWrapper(saved, encoding="utf-8-sig", newline="")
    return sum(1 for _ in csv.reader(text)) - 1


def report(results: list[Result], data: BenchData, built_s: float) -> None:
    """Print the table."""
    print(f"\nExport benchmark: {data.incomes:,} incomes in the sandbox, built in {built_s:.1f} s")
    print("heap peak = tracemalloc peak of Bookdesk's process during the download (the body goes"
          " to a file); RSS = growth of its peak RSS")
    print(f"{'format':<8}{'filter':<16}{'rows':>8}{'seconds':>10}{'heap peak MiB':>15}"
          f"{'RSS growth MiB':>16}")
    for r in results:
        print(f"{r.fmt:<8}{r.scope:<16}{r.rows:>8,}{r.seconds:>10.2f}"
              f"{r.heap_peak / 2**20:>15.1f}{r.rss_growth / 2**20:>16.1f}")


def main(argv: list[str] | None = None) -> None:
    """Build, serve, export, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incomes", type=int, default=10_000)
    parser.add_argument("--db", help="SQLite file to build (default: a temporary one)")
    args = parser.parse_args(argv)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = args.db or str(Path(tmp) / "export.db")
        started = time.perf_counter()
        data = build(db_path, args.incomes, random.Random(20261126))
        built_s = time.perf_counter() - started
        process, base = start_sandbox(db_path)
        try:
            client = signed_in_client(base, tmp, data.company.id)
            since = data.today - timedelta(days=data.span_days // 10)
            scopes = {"a tenth": f"date_field=issued_at&date_from={since}", "all": ""}
            results = [measure(client, f"/c/{data.company.id}/incomes/export?{query}"
                               f"&format={fmt}", fmt, scope)
                       for fmt in ("csv", "xlsx") for scope, query in scopes.items()]
        finally:
            process.terminate()
        report(results, data, built_s)


if __name__ == "__main__":
    main()
