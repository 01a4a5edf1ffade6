"""A scripted HTTP stub for the edge cases the sandbox cannot produce (odd bodies, resets)."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.upstream import UpstreamClient, catalog


@dataclass
class Reply:
    """One scripted answer: status, body, headers; or a delay, or a connection reset."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    reset: bool = False
    content_type: str = "application/json"

    def payload(self) -> bytes:
        """The body as bytes (dicts and lists as JSON)."""
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode()
        return json.dumps(self.body).encode()


class Stub:
    """Answers requests from a script (a queue, then a default) and records them."""

    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.default = Reply(body={})
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.url = ""

    @staticmethod
    def reply(status: int = 200, body: Any = None, headers: dict | None = None, **kw: Any) -> Reply:
        """Build a scripted reply (tests get Reply through the fixture, not by import)."""
        return Reply(status, body, headers or {}, **kw)

    def then(self, *replies: Reply) -> Stub:
        """Queue replies, answered in order."""
        self.script.extend(replies)
        return self

    def next_reply(self) -> Reply:
        """The reply for the next request."""
        with self.lock:
            return self.script.pop(0) if self.script else self.default


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with stub.lock:
                stub.requests.append(
                    {"method": self.command, "path": self.path,
                     "headers": dict(self.headers), "body": body}
                )
            reply = stub.next_reply()
            time.sleep(reply.delay)
            if reply.reset:
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
                self.close_connection = True
                return
            payload = reply.payload()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                self.close_connection = True

        do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _handle

    return Handler


@pytest.fixture
def stub():
    """A live scripted HTTP server on a free loopback port."""
    state = Stub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_port}"
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def stub_client(stub):
    """A client for the stub with fast retries."""
    return UpstreamClient(stub.url, "stub-token", 7, backoff=0.01, read_timeout=2)


@pytest.fixture(autouse=True)
def fresh_catalog():
    """An empty catalogue cache before and after each test."""
    catalog.clear()
    yield
    catalog.clear()
