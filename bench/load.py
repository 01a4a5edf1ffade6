"""Load: Bookdesk under gunicorn with Redis sessions, many signed-in users, 1/2/4 workers.

    python -m bench.load [--workers 1,2,4] [--threads 8] [--users 40] [--run-time 20]
                         [--latency-ms 50] [--upstream gunicorn|stub|sandbox]
                         [--upstream-workers 3]

Starts the upstream in processes of its own (bench/upstreams.py: by default the sandbox under
gunicorn with --upstream-workers workers on SQLite in WAL mode; `stub`, a fixed-latency server
replaying captured JSON that does no work, shows Bookdesk's own ceiling; `sandbox`, the
single-process sandbox), --latency-ms added per call, a redis-server and then, per worker
count, `gunicorn -w N --threads T` with BOOKDESK_SESSION_REDIS_URL; drives it
with locust (headless, fixed users, bench/locustfile.py) for --run-time seconds and prints
requests/s, latency percentiles, errors, RSS per worker, and where the time went: Bookdesk's own
Server-Timing against the sandbox's request log (single-process sandbox only), the CPU each side
burned and Bookdesk's requests/s per core of CPU it used ("machine busy" near 100% means the
box itself, locust included, is the limit). CPU columns are in % of one core. Loopback only;
asserts nothing.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from bench.common import (
    REPO,
    free_port,
    last_seq,
    machine,
    mean,
    percentile,
    sandbox_log,
    table,
    wait_until_up,
)
from bench.upstreams import KINDS, Upstream, children, upstream

TASK_ENDPOINTS = {"dashboard": "dashboard.index", "incomes": "incomes.index",
                  "income": "incomes.detail", "review": "review.index", "edit": "incomes.edit"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def available_tasks() -> list[str]:
    """The locust tasks whose Bookdesk route exists in this tree."""
    from app import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "x", "UPSTREAM_URL": "http://127.0.0.1:9",
                      "INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-probe-")})
    return [name for name, endpoint in TASK_ENDPOINTS.items() if endpoint in app.view_functions]


@contextmanager
def redis_server():
    """A throwaway redis-server on a free loopback port, no persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    port, folder = free_port(), tempfile.mkdtemp(prefix="bench-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", folder],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def gunicorn(upstream: str, redis_url: str, workers: int, threads: int):
    """Bookdesk under gunicorn on a free port; yields (base URL, master process)."""
    port, folder = free_port(), Path(tempfile.mkdtemp(prefix="bench-gunicorn-"))
    env = {key: value for key, value in os.environ.items() if not key.startswith("BOOKDESK_")}
    env.update(BOOKDESK_UPSTREAM_URL=upstream, BOOKDESK_SECRET_KEY="bench-secret-key",
               BOOKDESK_SESSION_REDIS_URL=redis_url, BOOKDESK_DEFAULT_LOCALE="en",
               BOOKDESK_INSTANCE_PATH=str(folder / "instance"))
    command = [str(Path(sys.executable).parent / "gunicorn"), "-w", str(workers), "--threads",
               str(threads), "-b", f"127.0.0.1:{port}", "app.cli:production_app()"]
    with (folder / "gunicorn.log").open("w") as log:
        proc = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/login", proc)
        yield f"http://127.0.0.1:{port}", proc
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def rss_mb(pid: int) -> float:
    """Resident set size of a process in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def run_locust(url: str, users: int, seconds: int, tasks: list[str], out: Path) -> dict:
    """Run locust headless against url; return the aggregate row and the Server-Timing file."""
    env = {**os.environ, "BENCH_TASKS": ",".join(tasks), "BENCH_TIMINGS": str(out / "st.json"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    command = [str(Path(sys.executable).parent / "locust"), "-f", str(REPO / "bench/locustfile.py"),
               "--headless", "-u", str(users), "-r", str(max(1, users // 2)), "--run-time",
               f"{seconds}s", "--host", url, "--csv", str(out / "run"), "--only-summary",
               "--reset-stats", "--stop-timeout", "5", "--loglevel", "WARNING"]
    with (out / "locust.log").open("w") as log:
        subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=log,
                       timeout=seconds + 60, check=False)
    with (out / "run_stats.csv").open() as stats:
        rows = list(csv.DictReader(stats))
    timings = json.loads((out / "st.json").read_text()) if (out / "st.json").exists() else []
    with (out / "run_failures.csv").open() as failures:
        failed = list(csv.DictReader(failures))
    return {"rows": rows, "timings": timings, "failures": failed}


def one_run(up: Upstream, redis_url: str, workers: int, args, tasks) -> dict:
    """One gunicorn configuration under load; the figures for its table row."""
    out = Path(tempfile.mkdtemp(prefix=f"bench-load-{workers}w-"))
    with gunicorn(up.url, redis_url, workers, args.threads) as (url, master):
        pids, upstream_pids = [master.pid, *children(master.pid)], up.pids()
        mark = last_seq(up.url) if up.logged else 0
        cpu_before = (cpu_seconds(pids), cpu_seconds(upstream_pids))
        box_before = machine_busy()
        started = time.monotonic()
        result = run_locust(url, args.users, args.run_time, tasks, out)
        wall = time.monotonic() - started
        worker_rss = [rss_mb(pid) for pid in children(master.pid)]
        cpu_after = (cpu_seconds(pids), cpu_seconds(upstream_pids))
        box_after = machine_busy()
    calls = sandbox_log(up.url, mark) if up.logged else []
    return {"workers": workers, **result, "rss": worker_rss, "wall": wall,
            "cpu_bookdesk": (cpu_after[0] - cpu_before[0]) / wall,
            "cpu_sandbox": (cpu_after[1] - cpu_before[1]) / wall,
            "box": (box_after[0] - box_before[0]) / max(1, box_after[1] - box_before[1]),
            "sandbox_ms": [c["duration_ms"] for c in calls]}


def capture(url: str, redis_url: str, args, tasks: list[str]) -> None:
    """Drive the locust mix briefly through a recording stub, so it has every answer."""
    with gunicorn(url, redis_url, 1, args.threads) as (bookdesk, _master):
        run_locust(bookdesk, min(args.users, 20), 15, tasks,
                   Path(tempfile.mkdtemp(prefix="bench-capture-")))


def summary_row(run: dict, threads: int) -> list:
    """Workers, rps, p50/p95/p99, errors, RSS, Bookdesk vs sandbox time, CPU per side."""
    agg = next(r for r in run["rows"] if r["Name"] == "Aggregated")
    app_ms = [t[1] for t in run["timings"]]
    per_call = [t[2] / t[3] for t in run["timings"] if t[3]]
    rps = float(agg["Requests/s"])
    return [f"{run['workers']} x {threads}", f"{rps:.1f}",
            f"{agg['50%']} / {agg['95%']} / {agg['99%']}", agg["Failure Count"],
            " ".join(f"{mb:.0f}" for mb in run["rss"]),
            f"{percentile(app_ms, 50):.0f} / {percentile(app_ms, 95):.0f}",
            f"{mean(per_call):.0f} / {mean(run['sandbox_ms']):.0f}".replace("nan", "-"),
            f"{run['cpu_bookdesk'] * 100:.0f}% / {run['cpu_sandbox'] * 100:.0f}%",
            f"{rps / run['cpu_bookdesk']:.0f}" if run["cpu_bookdesk"] else "-",
            f"{run['box'] * 100:.0f}%"]


def per_page_rows(run: dict) -> list[list]:
    """Per request name: count, failures, rps, p50/p95/p99."""
    return [[r["Name"], r["Request Count"], r["Failure Count"], f"{float(r['Requests/s']):.1f}",
             f"{r['50%']} / {r['95%']} / {r['99%']}"] for r in run["rows"]]


def describe(args) -> str:
    """The upstream of this run, for the caption."""
    return {"gunicorn": f"sandbox under gunicorn, {args.upstream_workers} workers, SQLite WAL",
            "stub": "fixed-latency stub replaying captured JSON (no work)",
            "sandbox": "single-process sandbox"}[args.upstream]


def main() -> None:
    """Run every worker count and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--run-time", type=int, default=20)
    parser.add_argument("--latency-ms", type=int, default=50)
    parser.add_argument("--upstream", choices=KINDS, default="gunicorn")
    parser.add_argument("--upstream-workers", type=int, default=3)
    args = parser.parse_args()
    tasks = available_tasks()
    runs = []
    with redis_server() as redis_url, upstream(
            args.upstream, args.latency_ms, args.upstream_workers,
            record=lambda url: capture(url, redis_url, args, tasks)) as up:
        for workers in [int(w) for w in args.workers.split(",")]:
            runs.append(one_run(up, redis_url, workers, args, tasks))
    print(f"\nLoad: {args.users} users, {args.run_time} s per run, {args.latency_ms} ms added "
          f"per upstream call, upstream: {describe(args)}, Redis sessions, tasks: "
          f"{', '.join(tasks)}; {machine()}\n")
    print(table(["workers x threads", "req/s", "latency ms p50 / p95 / p99", "errors",
                 "RSS MiB per worker", "Bookdesk app ms p50 / p95",
                 "one call ms: Bookdesk / sandbox", "CPU: Bookdesk / upstream",
                 "Bookdesk req/s per core", "machine busy"],
                [summary_row(run, args.threads) for run in runs]))
    print(f"\nPer request, {runs[-1]['workers']} workers:\n")
    print(table(["request", "count", "errors", "req/s", "ms p50 / p95 / p99"],
                per_page_rows(runs[-1])))
    failures = [[run["workers"], f["Name"], f["Error"], f["Occurrences"]]
                for run in runs for f in run["failures"]]
    if failures:
        print("\nErrors, by run:\n")
        print(table(["workers", "request", "error", "count"], failures))


if __name__ == "__main__":
    main()
