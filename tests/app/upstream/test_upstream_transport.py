"""Transport rules checked on a scripted server: headers, cookies, what is resent and when."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from app.upstream import Unavailable, UpstreamClient


def test_every_request_carries_token_accept_application_and_company(stub, stub_client):
    stub_client.get("/2/tags/")
    headers = stub.requests[0]["headers"]
    assert headers["Authorization"] == "Token stub-token"
    assert headers["Accept"] == "application/json"
    assert headers["X-Application"].startswith("bookdesk/")
    assert headers["Service-Company-Id"] == "7"


def test_company_header_name_is_a_setting(stub):
    UpstreamClient(stub.url, "t", 3, company_header="Quick-Company-Id").get("/2/tags/")
    assert stub.requests[0]["headers"]["Quick-Company-Id"] == "3"
    assert "Service-Company-Id" not in stub.requests[0]["headers"]


@pytest.mark.parametrize("company_id", [None, ""])
def test_no_company_sends_no_company_header(stub, company_id):
    UpstreamClient(stub.url, "t", company_id).get("/2/company-info/")
    assert "Service-Company-Id" not in stub.requests[0]["headers"]


def test_cookies_set_by_the_upstream_never_reach_another_request(stub, stub_client):
    stub.then(stub.reply(200, {}, {"Set-Cookie": "sessionid=abc; Path=/"}))
    stub_client.get("/2/tags/")
    UpstreamClient(stub.url, "other-user", 8).get("/2/tags/")
    assert "Cookie" not in stub.requests[1]["headers"]


def test_empty_and_204_bodies_decode_to_none(stub, stub_client):
    stub.then(stub.reply(204), stub.reply(200, ""))
    assert stub_client.post("/2/taxes/delete/", json={"ids": [1]}) is None
    assert stub_client.get("/2/tags/") is None


def test_json_bodies_decode_in_utf8_and_in_a_declared_other_charset(stub, stub_client):
    body = {"name": "Árvíztűrő tükörfúrógép", "amount": 1.5, "ids": [1, 2]}
    latin = {"name": "Pénzügy"}
    stub.then(stub.reply(200, json.dumps(body, ensure_ascii=False).encode()),
              stub.reply(200, json.dumps(latin, ensure_ascii=False).encode("latin-1"),
                         content_type="application/json; charset=iso-8859-1"))
    assert stub_client.get("/2/tags/") == body
    assert stub_client.get("/2/tags/") == latin


def test_broken_json_is_unavailable_in_any_charset(stub, stub_client):
    stub.then(stub.reply(200, b'{"name": "x"'),
              stub.reply(200, b'{"name": ', content_type="application/json; charset=latin-1"))
    for _ in range(2):
        with pytest.raises(Unavailable, match="malformed"):
            stub_client.get("/2/tags/")


def test_html_on_success_is_unavailable_not_a_crash(stub, stub_client):
    stub.then(stub.reply(200, "<html>login</html>", content_type="text/html"))
    with pytest.raises(Unavailable, match="malformed") as caught:
        stub_client.get("/2/tags/")
    assert caught.value.status == 200


def test_get_retries_after_a_reset_and_post_does_not(stub, stub_client):
    stub.then(stub.reply(reset=True))
    assert stub_client.get("/2/tags/") == {}
    stub.then(stub.reply(reset=True))
    with pytest.raises(Unavailable, match="connection failed"):
        stub_client.post("/2/tags/create/", json={"name": "x"})
    assert [r["method"] for r in stub.requests] == ["GET", "GET", "POST"]


def test_post_is_not_retried_after_a_read_timeout(stub):
    stub.then(stub.reply(delay=1.0))
    client = UpstreamClient(stub.url, "t", 1, read_timeout=0.2, backoff=0.01)
    with pytest.raises(Unavailable, match="timed out"):
        client.post("/2/tags/create/", json={"name": "x"})
    assert len(stub.requests) == 1


def test_refused_connection_is_retried_even_for_post():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        # Bound but not listening: every connect is refused before a byte is sent.
        client = UpstreamClient(f"http://127.0.0.1:{port}", "t", 1, retries=2, backoff=0.01)
        with pytest.raises(Unavailable, match="connection failed"):
            client.post("/2/tags/create/", json={"name": "x"})
    assert [c.error for c in client.stats.calls] == ["ConnectionError"] * 3


def test_connect_timeout_is_retried_even_for_post():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        # With a backlog of 0 one unaccepted connection fills the queue: later SYNs are dropped.
        filler = socket.create_connection(server.getsockname(), timeout=1)
        host, port = server.getsockname()
        client = UpstreamClient(
            f"http://{host}:{port}", "t", 1, retries=1, backoff=0.01, connect_timeout=0.2
        )
        with pytest.raises(Unavailable, match="timed out"):
            client.post("/2/tags/create/", json={"name": "x"})
        filler.close()
    assert [c.error for c in client.stats.calls] == ["ConnectTimeout"] * 2


def test_post_with_a_file_resends_the_same_bytes_after_a_refused_connect():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    received: list[bytes] = []
    client = UpstreamClient(f"http://127.0.0.1:{port}", "t", 1, retries=3, backoff=0.2)
    # The server listens only once the first connect has been refused: a fixed delay raced a
    # busy machine, where the first connect could come after it and meet a listening socket.
    server = threading.Thread(target=_serve_once_after,
                              args=(listener, lambda: client.stats.calls, received))
    server.start()
    files = {"file": ("bill.pdf", b"%PDF-1.4 body", "application/pdf")}
    assert client.post("/2/expenses/create/", data={"note": "n"}, files=files) == {"id": 1}
    server.join(5)
    listener.close()
    assert client.stats.calls[0].error == "ConnectionError"
    assert b"%PDF-1.4 body" in received[0]


def _serve_once_after(listener: socket.socket, refused, received: list[bytes]) -> None:
    deadline = time.monotonic() + 5
    while not refused() and time.monotonic() < deadline:
        time.sleep(0.01)
    listener.listen(1)
    conn, _ = listener.accept()
    with conn:
        conn.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(
            line.split(b":")[1] for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        ))
        while len(body) < length:
            body += conn.recv(65536)
        received.append(body)
        payload = b'{"id": 1}'
        conn.sendall(
            b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload
        )


def test_params_encode_plus_booleans_and_drop_none(stub, stub_client):
    stub_client.get(
        "/2/expenses", {"updated_since": "2024-01-01T10:00:00+01:00", "is_paid": False, "x": None}
    )
    assert stub.requests[0]["path"] == (
        "/2/expenses?updated_since=2024-01-01T10%3A00%3A00%2B01%3A00&is_paid=false"
    )


def test_absolute_links_are_followed_on_the_configured_origin_only(stub, stub_client):
    stub_client.get("https://elsewhere.example/2/expenses?cursor=abc")
    assert stub.requests[0]["path"] == "/2/expenses?cursor=abc"


def test_base_url_with_a_path_prefix_keeps_it_for_links(stub):
    client = UpstreamClient(f"{stub.url}/api/", "t", 1)
    client.get("/2/tags/")
    client.get("http://upstream.internal/api/2/tags/?page=2")
    assert [r["path"] for r in stub.requests] == ["/api/2/tags/", "/api/2/tags/?page=2"]


def test_proxy_settings_come_from_the_environment_per_origin(monkeypatch):
    from app.upstream import client

    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example")
    client._origin_settings.cache_clear()
    try:
        outside = client.environment_settings("http://api.example/1/incomes/?page=2")
        inside = client.environment_settings("http://internal.example/1/incomes/")
        assert outside["proxies"].get("http") == "http://proxy.example:3128"
        assert "http" not in inside["proxies"]
        outside["proxies"].clear()  # a caller's copy: the cached settings are untouched
        assert client.environment_settings("http://api.example/x")["proxies"]
    finally:
        client._origin_settings.cache_clear()
