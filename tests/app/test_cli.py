"""The `bookdesk` console script: commands, refusals, and a real `demo` start."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from app.cli import main

DEMO_TOKENS = ("demo-admin", "demo-bookkeeper", "demo-viewer", "demo-admin-2", "demo-no-2fa")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_console_script_offers_demo_serve_and_sandbox():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("demo", "serve", "sandbox"):
        assert command in result.output


def test_demo_options_have_documented_defaults():
    result = CliRunner().invoke(main, ["demo", "--help"])
    assert "--port" in result.output and "5000" in result.output
    assert "--sandbox-port" in result.output and "8001" in result.output


def test_serve_requires_upstream_url(monkeypatch):
    monkeypatch.delenv("BOOKDESK_UPSTREAM_URL", raising=False)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code != 0
    assert "BOOKDESK_UPSTREAM_URL" in result.output


def test_serve_refuses_to_start_without_secret_key(monkeypatch, tmp_path):
    monkeypatch.setenv("BOOKDESK_UPSTREAM_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("BOOKDESK_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("BOOKDESK_SECRET_KEY", raising=False)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code != 0
    assert "BOOKDESK_SECRET_KEY" in result.output


@pytest.fixture
def demo_server(tmp_path):
    port, sandbox_port = _free_port(), _free_port()
    env = {"BOOKDESK_INSTANCE_PATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "demo", "--port", str(port),
         "--sandbox-port", str(sandbox_port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/login", proc)
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_for(url: str, proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"demo exited early: {proc.stdout.read()}")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.ConnectionError:
            time.sleep(0.2)
    raise AssertionError("demo did not come up")


def test_demo_starts_both_servers_and_one_click_sign_in_works(demo_server):
    base, _proc = demo_server
    browser = requests.Session()
    page = browser.get(f"{base}/login").text
    assert not any(token in page for token in DEMO_TOKENS)
    assert page.count('name="user"') == 5
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = browser.post(f"{base}/login/demo", data={"csrf_token": csrf, "user": "admin"},
                            allow_redirects=False)
    assert response.status_code == 303
    assert response.headers["Location"] == "/c/1/"
    dashboard = browser.get(f"{base}/c/1/")
    assert dashboard.status_code == 200
    assert "Példa Kft." in dashboard.text
    assert not any(token in dashboard.text for token in DEMO_TOKENS)


def test_demo_prints_urls_and_tokens(demo_server):
    base, proc = demo_server
    proc.terminate()
    output = proc.communicate(timeout=10)[0]
    assert base in output
    assert all(token in output for token in DEMO_TOKENS)


def test_demo_sign_in_is_refused_outside_demo_mode(client):
    from tests.app.conftest import page_csrf

    response = client.post("/login/demo", data={"csrf_token": page_csrf(client), "user": "admin"})
    assert response.status_code == 303
    assert "/c/" not in response.headers["Location"]
    assert 'name="user"' not in client.get("/login").get_data(as_text=True)


def test_demo_offers_reset():
    result = CliRunner().invoke(main, ["demo", "--help"])
    assert "--reset" in result.output


def _store_counts(app) -> dict[str, int]:
    from sqlalchemy import func, select

    from app.store.db import Base, current_store

    with app.app_context(), current_store().sessions() as session:
        return {table.name: session.scalar(select(func.count()).select_from(table))
                for table in Base.metadata.sorted_tables}


def _make_records(app) -> None:
    from app.store import history, idempotency
    from app.store.history import Actor

    actor = Actor("Teszt Elek", "0123456789abcdef")
    with app.app_context():
        history.add_version(1, {"policies": []}, actor)
        history.record_action(1, actor, "done", [7], {"7": {}}, {"7": {}})
        idempotency.claim(idempotency.new_key(), 1, "income-create")


def test_reset_removes_records_and_sessions(app, client, company):
    from app.cli import reset_records
    from tests.app.conftest import session_cookie, sign_in

    _make_records(app)
    sign_in(client, company)
    assert all(count == 1 for count in _store_counts(app).values())
    assert client.get(f"/c/{company.id}/").status_code == 200
    reset_records(app)
    assert set(_store_counts(app).values()) == {0}
    assert not any((Path(app.instance_path) / "sessions").iterdir())
    assert client.get(f"/c/{company.id}/").status_code != 200, session_cookie(client, app)


def test_a_restart_without_reset_keeps_records(app, app_config):
    from app import create_app

    _make_records(app)
    restarted = create_app(app_config)
    assert set(_store_counts(restarted).values()) == {1}
