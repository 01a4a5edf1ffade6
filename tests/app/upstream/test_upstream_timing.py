"""Call accounting per request, Server-Timing on every response, make_client from config."""

from __future__ import annotations

import re

import pytest
from flask import Flask, g

from app.upstream import Call, CallStats, current_stats, init_app, make_client, run_parallel

TIMING = re.compile(
    r'^upstream;dur=(?P<up>\d+\.\d);desc="(?P<n>\d+) calls?", '
    r'app;dur=(?P<app>\d+\.\d);desc="total"$'
)


@pytest.fixture
def frontend(stub):
    """A minimal Flask app wired like Bookdesk: init_app plus views that call the stub."""
    app = Flask(__name__)
    app.config.update(UPSTREAM_URL=stub.url, UPSTREAM_BACKOFF=0.01, COMPANY_HEADER="X-Co")
    init_app(app)

    @app.get("/none")
    def no_calls():
        return "ok"

    @app.get("/two")
    def two_calls():
        client = make_client(5, "view-token")
        client.get("/2/tags/")
        client.get("/2/currencies/")
        return "ok"

    @app.get("/parallel")
    def parallel_calls():
        client = make_client(5, "view-token")
        run_parallel({n: (lambda p=p: client.get(p)) for n, p in
                      [("a", "/2/tags/"), ("b", "/2/currencies/"), ("c", "/2/expense-types/")]})
        return "ok"

    @app.get("/boom")
    def boom():
        make_client(5, "view-token").get("/2/tags/")
        raise RuntimeError("view failed")

    return app


def _timing(response) -> re.Match:
    match = TIMING.match(response.headers["Server-Timing"])
    assert match, response.headers["Server-Timing"]
    return match


def test_server_timing_on_a_response_without_upstream_calls(frontend):
    match = _timing(frontend.test_client().get("/none"))
    assert match["n"] == "0" and match["up"] == "0.0"


def test_server_timing_counts_calls_and_their_time(frontend, stub):
    stub.then(stub.reply(body=[], delay=0.05), stub.reply(body=[]))
    match = _timing(frontend.test_client().get("/two"))
    assert match["n"] == "2"
    assert float(match["up"]) >= 50 and float(match["app"]) >= float(match["up"])
    assert stub.requests[0]["headers"]["X-Co"] == "5"


def test_singular_call_wording():
    stats = CallStats()
    stats.record(Call("GET", "/2/tags/", 200, 12.34))
    assert stats.server_timing() == 'upstream;dur=12.3;desc="1 call"'


def test_calls_from_worker_threads_count_for_the_request(frontend, stub):
    match = _timing(frontend.test_client().get("/parallel"))
    assert match["n"] == "3" and len(stub.requests) == 3


def test_server_timing_on_404_and_on_an_unhandled_error(frontend):
    frontend.config["PROPAGATE_EXCEPTIONS"] = False
    client = frontend.test_client()
    assert _timing(client.get("/missing"))["n"] == "0"
    response = client.get("/boom")
    assert response.status_code == 500 and _timing(response)["n"] == "1"


def test_existing_server_timing_entries_are_kept(frontend):
    @frontend.after_request
    def add_db_timing(response):
        response.headers["Server-Timing"] = "db;dur=1.0"
        return response

    header = frontend.test_client().get("/none").headers["Server-Timing"]
    assert header.startswith('db;dur=1.0, upstream;dur=0.0;desc="0 calls", app;dur=')


def test_stats_live_on_flask_g_and_outside_a_request_are_fresh(frontend):
    assert current_stats() is not current_stats()
    with frontend.test_request_context("/"):
        g.request_id = "rid-1"
        stats = current_stats()
        assert stats is current_stats() and stats.request_id == "rid-1"
        assert make_client(1, "t").stats is stats


def test_make_client_reads_config(frontend, stub):
    frontend.config.update(
        UPSTREAM_CONNECT_TIMEOUT="1.5", UPSTREAM_READ_TIMEOUT=7, UPSTREAM_RETRIES="1",
        UPSTREAM_MAX_RETRY_AFTER=2, CATALOG_TTL=9,
    )
    with frontend.test_request_context("/"):
        client = make_client("5", "t")
    assert client.base_url == stub.url and client.company_header == "X-Co"
    assert client.timeout == (1.5, 7.0)
    assert (client.policy.retries, client.policy.max_retry_after) == (1, 2.0)
    assert client.catalog_ttl == 9.0


def test_make_client_without_upstream_url_says_so():
    app = Flask(__name__)
    with app.test_request_context("/"), pytest.raises(RuntimeError, match="UPSTREAM_URL"):
        make_client(1, "t")


def test_request_id_is_forwarded_upstream(frontend, stub):
    with frontend.test_request_context("/"):
        g.request_id = "rid-9"
        make_client(1, "t").get("/2/tags/")
    assert stub.requests[0]["headers"]["X-Request-Id"] == "rid-9"
