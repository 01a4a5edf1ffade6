"""An in-memory log of API requests with timing, readable by tests and benchmarks."""
from __future__ import annotations

import itertools
import threading
import time
from collections import deque

from flask import Flask, current_app, g, request

KEPT_HEADERS = ("Service-Company-Id", "Quick-Company-Id", "X-Application", "Content-Type",
                "Accept", "Idempotency-Key", "Accept-Language", "X-Request-Id")


class RequestLog:
    """A bounded, thread-safe ring of request records."""

    def __init__(self, size: int = 20000) -> None:
        self.items: deque[dict] = deque(maxlen=size)
        self.lock = threading.Lock()
        self.seq = itertools.count(1)

    def add(self, record: dict) -> None:
        """Append a record, numbering it."""
        with self.lock:
            record["seq"] = next(self.seq)
            self.items.append(record)

    def since(self, seq: int = 0) -> list[dict]:
        """Records after sequence number seq."""
        with self.lock:
            return [r for r in self.items if r["seq"] > seq]

    def clear(self) -> None:
        """Forget every record."""
        with self.lock:
            self.items.clear()


def init_app(app: Flask) -> None:
    """Time every request from its very start and record the API ones.

    Register after the fault board: after-request hooks run in reverse order, so the record is
    written before an injected reset drops the connection.
    """
    app.extensions["sandbox_log"] = RequestLog()
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    app.after_request(_record)


def request_log() -> RequestLog:
    """The app's request log."""
    return current_app.extensions["sandbox_log"]


def _start() -> None:
    g.started = time.perf_counter()
    # Read the body now: once a fault resets the connection it can no longer be read.
    # OAuth2 forms carry client secrets, codes and tokens: never kept.
    g.logged_body = _body() if not request.path.startswith(("/_sandbox", "/oauth/")) else None


def _record(response):
    if request.path.startswith("/_sandbox"):
        return response
    company = g.get("company")
    request_log().add({
        "method": request.method,
        "path": request.path,
        "query": request.query_string.decode("latin-1"),
        "args": request.args.to_dict(flat=False),
        "headers": {k: v for k, v in request.headers.items() if k in KEPT_HEADERS},
        "body": g.get("logged_body"),
        "status": response.status_code,
        "fault": g.get("fault"),
        "company_id": company.id if company is not None else None,
        "duration_ms": _elapsed_ms(),
        "at": time.time(),
    })
    return response


def _body():
    if request.is_json:
        return request.get_json(silent=True)
    if request.files or request.form:
        files = {k: {"filename": f.filename, "size": f.content_length}
                 for k, f in request.files.items()}
        return {"form": request.form.to_dict(flat=False), "files": files}
    return None


def _elapsed_ms() -> float:
    started = g.get("started", time.perf_counter())
    return round((time.perf_counter() - started) * 1000, 3)
