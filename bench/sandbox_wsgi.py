"""The sandbox as a gunicorn app for bench.load: every worker opens the same seeded SQLite file.

    BENCH_SANDBOX_DB=/tmp/x/sandbox.db BENCH_LATENCY_MS=50 gunicorn -w 3 bench.sandbox_wsgi:app

The file is seeded once beforehand (`seed`), so workers start with `seed="empty"` on it: SQLite
in WAL mode (sandbox/core/db.py) lets them read side by side. Fault rules live in each process, so
each worker adds the latency rule to itself through the public /_sandbox/faults/ control.
"""
from __future__ import annotations

import os

from sandbox import create_app
from sandbox.core.server import db_url_for, fresh_db


def seed(db_path: str) -> None:
    """Create and fill the demo database file (run once, before the workers start)."""
    fresh_db(db_path)
    app = create_app(db_url_for(db_path), seed="demo")
    app.extensions["sandbox_engine"].dispose()


def worker_app():
    """One worker's sandbox on the seeded file, with the latency rule installed."""
    app = create_app(db_url_for(os.environ["BENCH_SANDBOX_DB"]), seed="empty")
    latency = int(os.environ.get("BENCH_LATENCY_MS") or 0)
    if latency:
        reply = app.test_client().post("/_sandbox/faults/", json={
            "kind": "latency", "path": "*", "latency_ms": latency})
        assert reply.status_code in (200, 201), reply.get_data(as_text=True)
    return app


if os.environ.get("BENCH_SANDBOX_DB"):
    app = worker_app()
