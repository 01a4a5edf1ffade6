"""Per-request accounting of upstream calls, and the Server-Timing header."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from flask import Flask, Response, g, has_app_context

G_STATS = "upstream_stats"
G_STARTED = "upstream_request_started"


@dataclass(frozen=True)
class Call:
    """One upstream attempt: what was asked, what came back, how long it took."""

    method: str
    path: str
    status: int | None
    ms: float
    request_id: str | None = None
    error: str | None = None


class CallStats:
    """Thread-safe tally of upstream calls; one per Flask request (or per script)."""

    def __init__(self, request_id: str | None = None) -> None:
        self.request_id = request_id
        self._calls: list[Call] = []
        self._lock = threading.Lock()

    def record(self, call: Call) -> None:
        """Add one finished call."""
        with self._lock:
            self._calls.append(call)

    @property
    def calls(self) -> list[Call]:
        """A copy of the calls so far, in completion order."""
        with self._lock:
            return list(self._calls)

    @property
    def count(self) -> int:
        """Number of upstream calls (every retry attempt counts)."""
        return len(self.calls)

    @property
    def total_ms(self) -> float:
        """Sum of the calls' durations (parallel calls overlap, so this can exceed wall time)."""
        return sum(call.ms for call in self.calls)

    def server_timing(self) -> str:
        """The ``upstream`` Server-Timing entry, e.g. ``upstream;dur=12.3;desc="2 calls"``."""
        count = self.count
        noun = "call" if count == 1 else "calls"
        return f'upstream;dur={self.total_ms:.1f};desc="{count} {noun}"'

    def __repr__(self) -> str:
        return f"CallStats(count={self.count}, total_ms={self.total_ms:.1f})"


def current_stats() -> CallStats:
    """The current request's CallStats (created on flask.g), or a fresh one outside Flask."""
    if not has_app_context():
        return CallStats()
    if G_STATS not in g:
        setattr(g, G_STATS, CallStats(request_id=g.get("request_id")))
    return getattr(g, G_STATS)


def init_app(app: Flask) -> None:
    """Time every request and add Server-Timing (upstream + app) to every response."""
    # First in line, so the app timing covers every other before_request hook.
    app.before_request_funcs.setdefault(None, []).insert(0, _start_timer)
    app.after_request(_add_server_timing)


def _start_timer() -> None:
    setattr(g, G_STARTED, time.perf_counter())


def _add_server_timing(response: Response) -> Response:
    stats = g.get(G_STATS) or CallStats()
    entries = [stats.server_timing()]
    started = g.get(G_STARTED)
    if started is not None:
        entries.append(f'app;dur={(time.perf_counter() - started) * 1000:.1f};desc="total"')
    existing = response.headers.get("Server-Timing")
    response.headers["Server-Timing"] = ", ".join([existing, *entries] if existing else entries)
    return response
