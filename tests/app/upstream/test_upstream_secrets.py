"""The token never appears in exception text, reprs or log lines."""

from __future__ import annotations

import logging

import pytest

from app.upstream import UpstreamClient, UpstreamError

CANARY = "canary-7f3a9c1e-token"


@pytest.fixture
def canary_client(stub):
    return UpstreamClient(stub.url, CANARY, 1, retries=1, backoff=0.01, read_timeout=0.2)


def _assert_clean(*texts):
    for text in texts:
        assert CANARY not in text


def test_error_echoing_the_token_is_redacted_everywhere(stub, canary_client, caplog):
    caplog.set_level(logging.DEBUG)
    stub.then(stub.reply(401, {"detail": f"Invalid token {CANARY}.", CANARY: [CANARY]}))
    with pytest.raises(UpstreamError) as caught:
        canary_client.get("/2/tags/")
    error = caught.value
    _assert_clean(str(error), repr(error), repr(error.body), caplog.text, repr(canary_client))
    assert "Invalid token ***." in str(error)
    assert stub.requests[0]["headers"]["Authorization"] == f"Token {CANARY}"


@pytest.mark.parametrize("reply", [{"reset": True}, {"delay": 1.0}, {"status": 503}])
def test_transport_failures_never_show_the_token(stub, canary_client, caplog, reply):
    caplog.set_level(logging.DEBUG)
    stub.default = stub.reply(**reply)
    with pytest.raises(UpstreamError) as caught:
        canary_client.get("/2/tags/")
    error = caught.value
    _assert_clean(str(error), repr(error), caplog.text)
    assert error.__cause__ is None or getattr(error.__cause__, "request", None) is None


def test_debug_line_per_call_names_method_path_status_and_time(stub, canary_client, caplog):
    caplog.set_level(logging.DEBUG, logger="app.upstream")
    canary_client.get("/2/tags/", {"name": "x", "api_key": "hidden"})
    [record] = [r for r in caplog.records if r.name == "app.upstream"]
    message = record.getMessage()
    assert "GET /2/tags/?name=x&api_key=%2A%2A%2A -> 200 in" in message
    _assert_clean(message)
    assert "hidden" not in message
