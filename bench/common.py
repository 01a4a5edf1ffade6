"""Shared bench helpers: a demo sandbox with added latency, Bookdesk on a real port, sign-in,
Server-Timing parsing and percentiles.

    upstream = start_sandbox(latency_ms=50)         # demo seed, latency on every API call
    bookdesk = start_bookdesk(upstream.url)         # werkzeug threads, in this process
    http = signed_in(bookdesk.url, "demo-admin")    # requests.Session with a session cookie
    timing = server_timing(response)                # Timing(upstream_ms, calls, app_ms)
"""
from __future__ import annotations

import logging
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import requests
from werkzeug.serving import make_server

REPO = Path(__file__).resolve().parents[1]
DEMO_NAME = "Bench Béla"
DEMO_TOKEN = "demo-admin"  # noqa: S105 - the sandbox's published demo token
_CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
_UPSTREAM = re.compile(r'upstream;dur=([\d.]+);desc="(\d+) calls?"')
_APP = re.compile(r'app;dur=([\d.]+)')


@dataclass
class Server:
    """A server started by the bench: its base URL and how to stop it."""

    url: str
    server: object

    def stop(self) -> None:
        """Shut the server down (a thread's server, or a child process)."""
        if isinstance(self.server, subprocess.Popen):
            self.server.terminate()
            self.server.wait(timeout=10)
        else:
            self.server.shutdown()


@dataclass(frozen=True)
class Timing:
    """One response's Server-Timing: upstream time (sum of calls), call count, total app time."""

    upstream_ms: float
    calls: int
    app_ms: float

    @property
    def overhead_ms(self) -> float:
        """Server time not spent waiting on the upstream (negative when reads overlapped)."""
        return self.app_ms - self.upstream_ms


def quiet() -> None:
    """Silence per-request access logs of the in-process servers."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)


def free_port() -> int:
    """A free 127.0.0.1 port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, proc: subprocess.Popen | None = None, timeout: float = 60) -> None:
    """Poll url until it answers (or the process dies, or time runs out)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{url}: the process exited with {proc.returncode}")
        try:
            requests.get(url, timeout=10)
            return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up in {timeout} s")


def start_sandbox(latency_ms: int = 50, db_path: str | None = None) -> Server:
    """The sandbox with demo data in its own process (its own GIL, like a real upstream) on a
    free loopback port, every API call delayed latency_ms."""
    folder = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    port = free_port()
    command = [sys.executable, "-m", "app.cli", "sandbox", "--port", str(port), "--seed", "demo",
               "--db", db_path or str(folder / "sandbox.db")]
    with (folder / "sandbox.log").open("w") as log:
        proc = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    wait_until_up(f"{url}/_sandbox/health/", proc)
    if latency_ms:
        add_fault(url, path="*", kind="latency", latency_ms=latency_ms)
    return Server(url, proc)


def add_fault(sandbox_url: str, **spec) -> dict:
    """Add a sandbox fault rule (kind, path, method, rate, latency_ms, ...)."""
    response = requests.post(f"{sandbox_url}/_sandbox/faults/", json=spec, timeout=10)
    response.raise_for_status()
    return response.json()


def sandbox_log(sandbox_url: str, since: int = 0) -> list[dict]:
    """The sandbox's request records after sequence number `since` (duration_ms includes the
    injected latency: it is the sandbox-side time of each call)."""
    response = requests.get(f"{sandbox_url}/_sandbox/requests/?since={since}", timeout=30)
    response.raise_for_status()
    return response.json()["requests"]


def last_seq(sandbox_url: str) -> int:
    """The sequence number of the newest request record (0 when none)."""
    records = sandbox_log(sandbox_url)
    return records[-1]["seq"] if records else 0


def bookdesk_config(upstream_url: str, **overrides) -> dict:
    """create_app overrides for a bench Bookdesk: demo sign-in on, English, tmp instance."""
    return {"TESTING": False, "DEMO": True, "SECRET_KEY": "bench-secret-key",
            "UPSTREAM_URL": upstream_url, "DEFAULT_LOCALE": "en",
            "INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-bookdesk-"), **overrides}


def start_bookdesk(upstream_url: str, **overrides) -> Server:
    """Bookdesk from create_app, warmed as a production worker is (app.cli.warm), on werkzeug's
    threaded server in a daemon thread."""
    from app import create_app
    from app.cli import warm

    quiet()
    app = warm(create_app(bookdesk_config(upstream_url, **overrides)))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, name="bench-bookdesk", daemon=True).start()
    return Server(f"http://127.0.0.1:{server.server_port}", server)


def csrf_token(html: str) -> str:
    """The first CSRF token on a page."""
    match = _CSRF.search(html)
    if match is None:
        raise RuntimeError("no csrf_token on the page")
    return match.group(1)


def signed_in(base_url: str, token: str = DEMO_TOKEN, company_id: int = 1,
              name: str = DEMO_NAME) -> requests.Session:
    """A keep-alive session signed in through the real /login form."""
    http = requests.Session()
    page = http.get(f"{base_url}/login", timeout=30)
    response = http.post(f"{base_url}/login", timeout=30, allow_redirects=False, data={
        "csrf_token": csrf_token(page.text), "token": token, "name": name,
        "company_id": str(company_id)})
    if response.status_code != 303:
        raise RuntimeError(f"sign-in failed: {response.status_code}")
    return http


def server_timing(response: requests.Response) -> Timing:
    """Parse Bookdesk's Server-Timing header."""
    header = response.headers.get("Server-Timing", "")
    upstream, app = _UPSTREAM.search(header), _APP.search(header)
    if upstream is None or app is None:
        raise RuntimeError(f"no Server-Timing on {response.url}: {header!r}")
    return Timing(float(upstream.group(1)), int(upstream.group(2)), float(app.group(1)))


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def mean(values: list[float]) -> float:
    """Arithmetic mean; NaN for no values."""
    return sum(values) / len(values) if values else math.nan


def table(headers: list[str], rows: list[list]) -> str:
    """A plain Markdown table (pastes into the README as is)."""
    cells = [[str(c) for c in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
             for row in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def machine() -> str:
    """CPU model and core count, for the tables' caption."""
    import platform

    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"model name\s*:\s*(.+)", cpuinfo.read_text())
        model = found.group(1).strip() if found else ""
    return f"{model or platform.processor()}, {os.cpu_count()} cores, Python " \
           f"{platform.python_version()}"
