"""A fixed-latency upstream that does no work: canned JSON captured from the sandbox, replayed.

    python -m bench.stub_upstream --port 9001 --record http://127.0.0.1:8001 --canned /tmp/c.json
    python -m bench.stub_upstream --port 9001 --replay /tmp/c.json --latency-ms 50

Record mode forwards every request to the sandbox and keeps each answer, keyed by method, path
and query; at exit (SIGTERM) it writes them to --canned. Replay mode sleeps --latency-ms and
answers from the file: the exact request if it was seen, else one seen with the same method and
path shape (digits as N), else 404. Nothing is parsed, queried or validated, so the upstream's
CPU is what the HTTP exchange itself costs: bench.load's "stub" mode uses it to show Bookdesk's
own ceiling. Loopback only; the stdlib's threaded HTTP server, HTTP/1.1 keep-alive.
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host",
               "content-encoding"}
_DIGITS = re.compile(r"\d+")


def shape(method: str, target: str) -> str:
    """The key a request falls back to: its path with every number as N, no query."""
    return f"{method} {_DIGITS.sub('N', target.split('?', 1)[0])}"


class Canned:
    """Captured answers: exact key -> (status, content type, body), plus one per path shape."""

    def __init__(self, answers: dict | None = None) -> None:
        self.exact: dict[str, list] = dict(answers or {})
        self.shapes = {shape(*key.split(" ", 1)): value for key, value in self.exact.items()}
        self.lock = threading.Lock()

    def find(self, method: str, target: str) -> list | None:
        """The answer for this request, exact or by shape."""
        return self.exact.get(f"{method} {target}") or self.shapes.get(shape(method, target))

    def keep(self, method: str, target: str, answer: list) -> None:
        """Record one answer (record mode)."""
        with self.lock:
            self.exact.setdefault(f"{method} {target}", answer)


def make_handler(canned: Canned, latency_s: float, forward_to: str | None):
    """The request handler class for one stub server."""
    http = requests.Session()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if forward_to:
                answer = self._forward(body)
                canned.keep(self.command, self.path, answer)
            else:
                time.sleep(latency_s)
                answer = canned.find(self.command, self.path) or [404, "application/json",
                                                                  '{"detail": "Not canned."}']
            self._send(*answer)

        def _forward(self, body: bytes) -> list:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_HEADERS}
            reply = http.request(self.command, forward_to + self.path, data=body or None,
                                 headers=headers, timeout=60)
            return [reply.status_code, reply.headers.get("Content-Type", ""), reply.text]

        def _send(self, status: int, content_type: str, text: str) -> None:
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type or "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

        def log_message(self, *_args) -> None:
            """No access log: the stub does no work it does not have to."""

    return Handler


def main() -> None:
    """Serve until SIGTERM; in record mode write what was captured."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency-ms", type=float, default=50)
    parser.add_argument("--record", help="the sandbox URL to capture from")
    parser.add_argument("--replay", help="a canned file to answer from")
    parser.add_argument("--canned", help="where record mode writes its capture")
    args = parser.parse_args()
    canned = Canned(json.loads(Path(args.replay).read_text()) if args.replay else None)
    handler = make_handler(canned, args.latency_ms / 1000, args.record)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    server.serve_forever()
    if args.record and args.canned:
        Path(args.canned).write_text(json.dumps(canned.exact))
    sys.exit(0)


if __name__ == "__main__":
    main()
