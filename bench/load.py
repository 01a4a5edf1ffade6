"""Load: Bookdesk under gunicorn with Redis sessions, many signed-in users, 1/2/4 workers.

    python -m bench.load [--workers 1,2,4] [--threads 8] [--users 40] [--run-time 20]
                         [--latency-ms 50]

Starts the sandbox (demo data, --latency-ms added per call, its own process), a redis-server and
then, per worker count, `gunicorn -w N --threads T` with BOOKDESK_SESSION_REDIS_URL; drives it
with locust (headless, fixed users, bench/locustfile.py) for --run-time seconds and prints
requests/s, latency percentiles, errors, RSS per worker, and where the time went: Bookdesk's own
Server-Timing against the sandbox's request log, and the CPU each side burned (one sandbox
process near 100% of a core means the sandbox, not Bookdesk, is the limit; "machine busy" near
100% means the box itself, locust included, is). CPU columns are in % of one core. Loopback only;
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
    start_sandbox,
    table,
    wait_until_up,
)

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
               str(threads), "-b", f"127.0.0.1:{port}", "app.wsgi:application"]
    with (folder / "gunicorn.log").open("w") as log:
        proc = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/login", proc)
        yield f"http://127.0.0.1:{port}", proc
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def children(pid: int) -> list[int]:
    """Direct child processes of pid (gunicorn's workers)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


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


def one_run(sandbox, sandbox_pid: int, redis_url: str, workers: int, args, tasks) -> dict:
    """One gunicorn configuration under load; the figures for its table row."""
    out = Path(tempfile.mkdtemp(prefix=f"bench-load-{workers}w-"))
    with gunicorn(sandbox.url, redis_url, workers, args.threads) as (url, master):
        pids = [master.pid, *children(master.pid)]
        mark, cpu_before = last_seq(sandbox.url), (cpu_seconds(pids), cpu_seconds([sandbox_pid]))
        box_before = machine_busy()
        started = time.monotonic()
        result = run_locust(url, args.users, args.run_time, tasks, out)
        wall = time.monotonic() - started
        worker_rss = [rss_mb(pid) for pid in children(master.pid)]
        cpu_after = (cpu_seconds(pids), cpu_seconds([sandbox_pid]))
        box_after = machine_busy()
    calls = sandbox_log(sandbox.url, mark)
    return {"workers": workers, **result, "rss": worker_rss, "wall": wall,
            "cpu_bookdesk": (cpu_after[0] - cpu_before[0]) / wall,
            "cpu_sandbox": (cpu_after[1] - cpu_before[1]) / wall,
            "box": (box_after[0] - box_before[0]) / max(1, box_after[1] - box_before[1]),
            "sandbox_ms": [c["duration_ms"] for c in calls]}


def summary_row(run: dict, threads: int) -> list:
    """Workers, rps, p50/p95/p99, errors, RSS, Bookdesk vs sandbox time, CPU per side."""
    agg = next(r for r in run["rows"] if r["Name"] == "Aggregated")
    app_ms = [t[1] for t in run["timings"]]
    per_call = [t[2] / t[3] for t in run["timings"] if t[3]]
    return [f"{run['workers']} x {threads}", f"{float(agg['Requests/s']):.1f}",
            f"{agg['50%']} / {agg['95%']} / {agg['99%']}", agg["Failure Count"],
            " ".join(f"{mb:.0f}" for mb in run["rss"]),
            f"{percentile(app_ms, 50):.0f} / {percentile(app_ms, 95):.0f}",
            f"{mean(per_call):.0f} / {mean(run['sandbox_ms']):.0f}",
            f"{run['cpu_bookdesk'] * 100:.0f}% / {run['cpu_sandbox'] * 100:.0f}%",
            f"{run['box'] * 100:.0f}%"]


def per_page_rows(run: dict) -> list[list]:
    """Per request name: count, failures, rps, p50/p95/p99."""
    return [[r["Name"], r["Request Count"], r["Failure Count"], f"{float(r['Requests/s']):.1f}",
             f"{r['50%']} / {r['95%']} / {r['99%']}"] for r in run["rows"]]


def main() -> None:
    """Run every worker count and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--run-time", type=int, default=20)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()
    tasks = available_tasks()
    sandbox = start_sandbox(args.latency_ms)
    runs = []
    try:
        with redis_server() as redis_url:
            for workers in [int(w) for w in args.workers.split(",")]:
                runs.append(one_run(sandbox, sandbox.server.pid, redis_url, workers, args, tasks))
    finally:
        sandbox.stop()
    print(f"\nLoad: {args.users} users, {args.run_time} s per run, {args.latency_ms} ms added "
          f"per upstream call, Redis sessions, tasks: {', '.join(tasks)}; {machine()}\n")
    print(table(["workers x threads", "req/s", "latency ms p50 / p95 / p99", "errors",
                 "RSS MiB per worker", "Bookdesk app ms p50 / p95",
                 "one call ms: Bookdesk / sandbox", "CPU: Bookdesk / sandbox",
                 "machine busy"],
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
