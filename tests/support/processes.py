"""Real processes for tests: a redis-server, and Bookdesk under gunicorn.

Fixtures (import them into a test module to use them):
    redis_server    session: RedisServer(url, port) on a free loopback port, no persistence
                    (--save "" --appendonly no), stopped at the end. Missing binary: fails when
                    the CI env var is set, skips otherwise.
Helpers:
    free_port()                         a free 127.0.0.1 port
    bookdesk_process(tmp_path, env)     a context manager: `gunicorn -w 1
                                        app.cli:production_app()` with BOOKDESK_* env,
                                        yields BookdeskProcess(url, log_path)
"""
from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.conftest import in_ci

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, what: str, log: Path | None) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    tail = log.read_text()[-3000:] if log and log.exists() else ""
    raise AssertionError(f"{what} did not start on port {port} (exit {proc.poll()}):\n{tail}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@dataclass
class RedisServer:
    """A running redis-server."""

    url: str
    port: int


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A throwaway redis-server on a free port."""
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp("redis")
    port, log = free_port(), folder / "redis.log"
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder), "--logfile", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc, "redis-server", log)
        yield RedisServer(f"redis://127.0.0.1:{port}/0", port)
    finally:
        _stop(proc)


@dataclass
class BookdeskProcess:
    """A Bookdesk served by gunicorn in its own process."""

    url: str
    log_path: Path


def _gunicorn() -> list[str]:
    script = Path(sys.executable).parent / "gunicorn"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gunicorn"]


def _wait_until_serving(url: str, proc: subprocess.Popen, log: Path, limit: float = 90.0) -> None:
    """The arbiter listens before its worker has imported the app: poll until a page answers."""
    deadline = time.monotonic() + limit
    while True:
        try:
            requests.get(url, timeout=15).raise_for_status()
            return
        except requests.RequestException:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not serve {url}: {log.read_text()[-2000:]}") \
                    from None
            time.sleep(0.5)


@contextlib.contextmanager
def bookdesk_process(folder: Path, env: dict[str, str], threads: int = 2):
    """Run `gunicorn -w 1 app.cli:production_app()` with BOOKDESK_* `env`; stopped on exit."""
    folder.mkdir(parents=True, exist_ok=True)
    port, log = free_port(), folder / "gunicorn.log"
    full_env = {key: value for key, value in os.environ.items()
                if not key.startswith("BOOKDESK_")}
    full_env.update({"BOOKDESK_INSTANCE_PATH": str(folder / "instance"), **env})
    command = [*_gunicorn(), "-w", "1", "--threads", str(threads), "-b", f"127.0.0.1:{port}",
               "--error-logfile", "-", "app.cli:production_app()"]
    with log.open("w") as out:
        proc = subprocess.Popen(command, cwd=REPO, env=full_env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc, "gunicorn", log)
        url = f"http://127.0.0.1:{port}"
        _wait_until_serving(f"{url}/login", proc, log)
        yield BookdeskProcess(url, log)
    finally:
        _stop(proc)
