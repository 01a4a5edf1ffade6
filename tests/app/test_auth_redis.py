"""Sessions in a real Redis: two Bookdesk processes (gunicorn via `bookdesk serve`) share them."""
from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
import requests

from tests.conftest import in_ci

pytestmark = pytest.mark.redis


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(url: str, proc, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"process exited: {proc.stdout.read()}")
        try:
            requests.get(url, timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not come up")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not shutil.os.path.exists(binary):
        if in_ci():
            pytest.fail("redis-server is not installed")
        pytest.skip("redis-server is not installed")
    port = _free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path_factory.mktemp("redis"))],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def two_processes(redis_url, sandbox_url, tmp_path):
    procs, bases = [], []
    for name in ("one", "two"):
        port = _free_port()
        env = {"PATH": "/usr/bin:/bin", "BOOKDESK_SECRET_KEY": "shared-secret-for-both",
               "BOOKDESK_UPSTREAM_URL": sandbox_url, "BOOKDESK_SESSION_REDIS_URL": redis_url,
               "BOOKDESK_INSTANCE_PATH": str(tmp_path / name)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "1",
             "--threads", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        procs.append(proc)
        bases.append(f"http://127.0.0.1:{port}")
    try:
        for base, proc in zip(bases, procs, strict=True):
            _wait(f"{base}/login", proc)
        yield bases
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def test_session_made_by_one_process_is_seen_by_the_other_and_logout_is_shared(
        two_processes, company):
    one, two = two_processes
    browser = requests.Session()
    data = {"csrf_token": _csrf(browser.get(f"{one}/login").text),
            "token": company.tokens["admin"], "name": "Teszt Elek"}
    assert browser.post(f"{one}/login", data=data, allow_redirects=False).status_code == 303
    page = browser.get(f"{two}/c/{company.id}/", allow_redirects=False)
    assert page.status_code == 200
    assert company.name in page.text
    old_cookie = browser.cookies.get("bookdesk_session")
    logout = browser.post(f"{two}/logout", data={"csrf_token": _csrf(page.text)},
                          allow_redirects=False)
    assert logout.status_code == 303
    replay = requests.get(f"{one}/c/{company.id}/", cookies={"bookdesk_session": old_cookie},
                          allow_redirects=False)
    assert replay.status_code == 303
    assert replay.headers["Location"].startswith("/login")
