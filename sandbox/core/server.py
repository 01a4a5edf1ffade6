"""Run the sandbox: blocking (CLI) or in a background thread (tests, demo)."""
from __future__ import annotations

import threading
from pathlib import Path

from werkzeug.serving import BaseWSGIServer, make_server

from sandbox import create_app


def db_url_for(path: str | None) -> str:
    """SQLite URL for a file path, or in-memory for None / ':memory:'."""
    if not path or path == ":memory:":
        return "sqlite://"
    return f"sqlite:///{Path(path).resolve()}"


def fresh_db(path: str | None) -> None:
    """Delete an existing SQLite file so a seed starts clean."""
    if path and path != ":memory:":
        for suffix in ("", "-wal", "-shm"):
            Path(path + suffix).unlink(missing_ok=True)


def start(host: str = "127.0.0.1", port: int = 0, db_path: str | None = None,
          seed: str = "empty") -> tuple[BaseWSGIServer, str]:
    """Start a threaded sandbox in a daemon thread; returns the server and its base URL."""
    if seed == "demo":
        fresh_db(db_path)
    app = create_app(db_url_for(db_path), seed=seed)
    server = make_server(host, port, app, threaded=True)
    threading.Thread(target=server.serve_forever, name="sandbox", daemon=True).start()
    return server, f"http://{host}:{server.server_port}"


def run(host: str = "127.0.0.1", port: int = 8001, db_path: str | None = None,
        seed: str = "empty") -> None:
    """Serve in the foreground until interrupted."""
    if seed == "demo":
        fresh_db(db_path)
    app = create_app(db_url_for(db_path), seed=seed)
    make_server(host, port, app, threaded=True).serve_forever()
