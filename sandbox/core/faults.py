"""Fault injection switched at run time: latency, error statuses, 429, resets, malformed bodies,
and query parameters passed over (as the live API passes over a filter it does not know)."""
from __future__ import annotations

import random
import socket
import struct
import threading
import time
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from urllib.parse import parse_qsl, urlencode

from flask import Flask, Response, current_app, g, jsonify, request

KINDS = ("latency", "status", "reset", "reset_after", "malformed", "ignore_query")


@dataclass
class Fault:
    """One rule: which requests it hits, how often, and what it does."""

    id: int
    path: str = "*"
    method: str = "*"
    kind: str = "status"
    status: int = 503
    rate: float = 1.0
    count: int | None = None
    latency_ms: int = 0
    retry_after: int | None = None
    params: list[str] = field(default_factory=list)  # ignore_query: the parameters passed over
    hits: int = 0
    rng: random.Random = field(default_factory=random.Random, repr=False)

    def matches(self) -> bool:
        """True when this rule applies to the current request (and consumes one hit)."""
        if self.method not in ("*", request.method) or not fnmatchcase(request.path, self.path):
            return False
        if self.count is not None and self.hits >= self.count:
            return False
        if self.rate < 1.0 and self.rng.random() >= self.rate:
            return False
        self.hits += 1
        return True

    def public(self) -> dict:
        """JSON view of the rule."""
        data = asdict(self)
        data.pop("rng")
        return data


class FaultBoard:
    """The live set of rules of one sandbox app."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.lock = threading.Lock()
        self.next_id = 1

    def add(self, spec: dict) -> Fault:
        """Add a rule from a JSON spec."""
        if spec.get("kind", "status") not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        names = spec.get("params", [])
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError("params must be a list of parameter names")
        allowed = {k: v for k, v in spec.items() if k in Fault.__dataclass_fields__}
        allowed.pop("id", None)
        allowed.pop("hits", None)
        allowed.pop("rng", None)
        with self.lock:
            rule = Fault(id=self.next_id, rng=random.Random(self.next_id), **allowed)
            self.next_id += 1
            self.rules.append(rule)
        return rule

    def clear(self) -> None:
        """Switch every fault off."""
        with self.lock:
            self.rules.clear()

    def pick(self) -> list[Fault]:
        """The rules that fire for this request."""
        with self.lock:
            return [rule for rule in self.rules if rule.matches()]


def init_app(app: Flask) -> None:
    """Install the board; its hooks run first before and last after every API request."""
    app.extensions["sandbox_faults"] = FaultBoard()
    app.before_request(_before)
    app.after_request(_after)


def board() -> FaultBoard:
    """The app's fault board."""
    return current_app.extensions["sandbox_faults"]


def _before():
    if request.path.startswith("/_sandbox"):
        return None
    for rule in board().pick():
        if rule.latency_ms:
            time.sleep(rule.latency_ms / 1000)
        response = _act(rule)
        if response is not None:
            return response
    return None


def _act(rule: Fault) -> Response | None:
    if rule.kind == "status":
        response = jsonify({"detail": f"Injected fault: status {rule.status}."})
        response.status_code = rule.status
        if rule.retry_after is not None:
            response.headers["Retry-After"] = str(rule.retry_after)
        g.fault = rule.kind
        return response
    if rule.kind == "malformed":
        g.fault = rule.kind
        return Response('{"results": [ <html>oops', 200, content_type="application/json")
    if rule.kind == "reset":
        g.fault = rule.kind
        _reset_connection()
        return Response("", 500)
    if rule.kind == "reset_after":
        g.reset_after = True
    if rule.kind == "ignore_query":
        g.fault = rule.kind
        kept = [(key, value) for key, value in parse_qsl(request.query_string.decode(),
                                                        keep_blank_values=True)
                if key not in rule.params]
        request.query_string = urlencode(kept).encode()  # read before any hook reads args
    return None


def _after(response: Response) -> Response:
    if g.pop("reset_after", False):
        g.fault = "reset_after"
        _reset_connection()
    return response


def _reset_connection() -> None:
    """Abort the TCP connection (RST) so the client gets no response at all."""
    sock = request.environ.get("werkzeug.socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
