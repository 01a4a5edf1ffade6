"""The upstreams bench.load can run against, each in processes of its own.

    with upstream("gunicorn", latency_ms=50, workers=3) as up:   # up.url, up.pids(), up.logged
        ...

- `sandbox`: the single-process sandbox (bench/common.py start_sandbox);
- `gunicorn`: the sandbox under gunicorn, several workers on one seeded SQLite file in WAL mode
  (bench/sandbox_wsgi.py);
- `stub`: bench/stub_upstream.py replaying JSON captured from the sandbox with a fixed latency
  and no work, to show Bookdesk's own ceiling. The capture is made first by running the same
  locust mix briefly through the stub in record mode in front of a sandbox.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.common import REPO, free_port, start_sandbox, wait_until_up

KINDS = ("gunicorn", "stub", "sandbox")


@dataclass
class Upstream:
    """A running upstream: its URL, its processes, and whether it keeps a request log."""

    url: str
    pids: Callable[[], list[int]]
    logged: bool


def children(pid: int) -> list[int]:
    """Direct child processes of pid (gunicorn's workers)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@contextmanager
def upstream(kind: str, latency_ms: int, workers: int = 3,
             record: Callable[[str], None] | None = None) -> Iterator[Upstream]:
    """Start one kind of upstream; `record(url)` drives traffic for the stub's capture."""
    if kind == "sandbox":
        server = start_sandbox(latency_ms)
        try:
            yield Upstream(server.url, lambda: [server.server.pid], logged=True)
        finally:
            server.stop()
    elif kind == "gunicorn":
        with _gunicorn_sandbox(latency_ms, workers) as up:
            yield up
    else:
        with _stub(latency_ms, record) as up:
            yield up


@contextmanager
def _process(command: list[str], url: str, health: str, env: dict | None = None):
    folder = Path(tempfile.mkdtemp(prefix="bench-upstream-"))
    with (folder / "upstream.log").open("w") as log:
        proc = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    try:
        wait_until_up(url + health, proc)
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@contextmanager
def _gunicorn_sandbox(latency_ms: int, workers: int) -> Iterator[Upstream]:
    from bench.sandbox_wsgi import seed

    db_path = str(Path(tempfile.mkdtemp(prefix="bench-sandbox-")) / "sandbox.db")
    seed(db_path)
    port = free_port()
    command = [str(Path(sys.executable).parent / "gunicorn"), "-w", str(workers), "--threads",
               "8", "-b", f"127.0.0.1:{port}", "bench.sandbox_wsgi:app"]
    env = {"BENCH_SANDBOX_DB": db_path, "BENCH_LATENCY_MS": str(latency_ms)}
    url = f"http://127.0.0.1:{port}"
    with _process(command, url, "/_sandbox/health/", env) as proc:
        yield Upstream(url, lambda: [proc.pid, *children(proc.pid)], logged=False)


@contextmanager
def _stub(latency_ms: int, record: Callable[[str], None] | None) -> Iterator[Upstream]:
    canned = str(Path(tempfile.mkdtemp(prefix="bench-stub-")) / "canned.json")
    sandbox = start_sandbox(0)
    try:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        with _process(_stub_command(port, "--record", sandbox.url, "--canned", canned),
                      url, "/_sandbox/health/"):
            if record is not None:
                record(url)
    finally:
        sandbox.stop()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = _stub_command(port, "--replay", canned, "--latency-ms", str(latency_ms))
    with _process(command, url, "/_sandbox/health/") as proc:
        yield Upstream(url, lambda: [proc.pid], logged=False)


def _stub_command(port: int, *args: str) -> list[str]:
    return [sys.executable, "-m", "bench.stub_upstream", "--port", str(port), *args]
