"""The client against the live sandbox: retries, lost responses, rate limits, timeouts, auth."""

from __future__ import annotations

import time

import pytest

from app.upstream import (
    AuthenticationError,
    CallStats,
    NotFound,
    PermissionDenied,
    RateLimited,
    Unavailable,
    UpstreamClient,
)
from tests.conftest import SandboxLog

INFO = "/2/company-info/"


def logged_once_settled(sandbox_log, method: str, path: str) -> list[dict]:
    """Log entries for a request whose connection the sandbox reset.

    The sandbox resets the socket before it writes the log record, so the record can land
    a moment after the client has already given up: poll briefly before counting.
    """
    deadline = time.monotonic() + 3
    while not (entries := sandbox_log.entries(method=method, path=path)):
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    return entries


@pytest.fixture
def sandbox_log(sandbox_url, company):
    """Overrides the shared fixture: only the test company's requests are counted."""
    return SandboxLog(sandbox_url, sent_for=company.id)


@pytest.fixture
def client_for(sandbox_url, company):
    """Factory: a client for the test company with a role's token and fast retries."""

    def make(role: str = "admin", **options) -> UpstreamClient:
        options.setdefault("backoff", 0.01)
        token = company.tokens.get(role, role)
        return UpstreamClient(sandbox_url, token, company.id, **options)

    return make


def test_get_survives_two_503s(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", method="GET", kind="status", status=503, count=2)
    client = client_for()
    assert client.get(INFO)["id"] == client.company_id
    assert [e["status"] for e in sandbox_log.entries(method="GET", path=INFO)] == [503, 503, 200]
    assert client.stats.count == 3


def test_get_gives_up_after_retries_with_unavailable(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", method="GET", kind="status", status=502, count=10)
    with pytest.raises(Unavailable) as caught:
        client_for(retries=2).get(INFO)
    assert caught.value.status == 502
    assert len(sandbox_log.entries(method="GET", path=INFO)) == 3


def test_get_retries_after_a_connection_reset(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", method="GET", kind="reset", count=1)
    assert client_for().get(INFO)["id"]
    assert len(sandbox_log.entries(method="GET", path=INFO)) == 2


def test_post_is_sent_once_when_its_response_is_lost(client_for, faults, sandbox_log):
    faults.add(path="/2/tags/create*", method="POST", kind="reset_after")
    client = client_for()
    with pytest.raises(Unavailable):
        client.post("/2/tags/create/", json={"name": "Once"})
    assert len(logged_once_settled(sandbox_log, "POST", "/2/tags/create")) == 1
    assert client.stats.count == 1
    assert "Once" in [tag["name"] for tag in client.get("/2/tags/")]


def test_patch_is_sent_once_when_its_response_is_lost_though_it_committed(
    client_for, company, faults, sandbox_log
):
    path = f"/2/company-info/update/{company.id}/"
    faults.add(path=path, method="PATCH", kind="reset_after")
    client = client_for()
    with pytest.raises(Unavailable):
        client.patch(path, json={"enable_vat_period": True})
    assert len(logged_once_settled(sandbox_log, "PATCH", path)) == 1
    assert client.get(INFO)["enable_vat_period"] is True


def test_post_is_not_retried_on_503(client_for, faults, sandbox_log):
    faults.add(path="/2/tags/create*", method="POST", kind="status", status=503)
    with pytest.raises(Unavailable):
        client_for().post("/2/tags/create/", json={"name": "x"})
    assert len(sandbox_log.entries(method="POST", path="/2/tags/create")) == 1


def test_retry_after_within_the_cap_is_waited_for(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", kind="status", status=429, retry_after=1, count=1)
    started = time.monotonic()
    assert client_for(max_retry_after=5).get(INFO)["id"]
    assert 1.0 <= time.monotonic() - started < 3.0
    assert len(sandbox_log.entries(method="GET", path=INFO)) == 2


def test_retry_after_beyond_the_cap_raises_rate_limited_at_once(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", kind="status", status=429, retry_after=3)
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        client_for(max_retry_after=1).get(INFO)
    assert time.monotonic() - started < 1.0
    assert caught.value.retry_after == 3
    assert len(sandbox_log.entries(method="GET", path=INFO)) == 1


def test_429_without_retry_after_backs_off_then_raises_rate_limited(client_for, faults):
    faults.add(path="/2/company-info*", kind="status", status=429)
    client = client_for(retries=2)
    with pytest.raises(RateLimited) as caught:
        client.get(INFO)
    assert caught.value.retry_after is None
    assert client.stats.count == 3


def test_read_timeout_raises_unavailable_after_one_attempt(client_for, faults):
    faults.add(path="/2/company-info*", kind="latency", latency_ms=1500)
    client = client_for(read_timeout=0.3, retries=2)
    started = time.monotonic()
    with pytest.raises(Unavailable, match="timed out"):
        client.get(INFO)
    # One attempt of 0.3 s, never the 1.5 s the server takes, and not asked again.
    assert time.monotonic() - started < 1.0
    assert [c.error for c in client.stats.calls] == ["ReadTimeout"]


def test_malformed_success_body_raises_unavailable(client_for, faults, sandbox_log):
    faults.add(path="/2/company-info*", kind="malformed", count=1)
    with pytest.raises(Unavailable, match="malformed"):
        client_for().get(INFO)
    assert len(sandbox_log.entries(method="GET", path=INFO)) == 1


def test_plus_in_a_query_timestamp_arrives_intact(client_for, sandbox_log):
    client_for().get(INFO, {"updated_since": "2024-01-01T10:00:00+01:00", "is_paid": True})
    [entry] = sandbox_log.entries(method="GET", path=INFO)
    assert entry["args"]["updated_since"] == ["2024-01-01T10:00:00+01:00"]
    assert entry["args"]["is_paid"] == ["true"]
    assert "%2B01%3A00" in entry["query"]


def test_invalid_token_raises_authentication_error(client_for):
    with pytest.raises(AuthenticationError) as caught:
        client_for("not-a-real-token").get(INFO)
    assert caught.value.status == 401


def test_token_without_two_factor_raises_permission_denied_two_factor(client_for):
    with pytest.raises(PermissionDenied) as caught:
        client_for("no_2fa").get(INFO)
    assert caught.value.two_factor is True


def test_viewer_write_raises_permission_denied_not_two_factor(client_for, company):
    with pytest.raises(PermissionDenied) as caught:
        client_for("viewer").patch(
            f"/2/company-info/update/{company.id}/", json={"enable_vat_period": True}
        )
    assert caught.value.two_factor is False


def test_company_header_for_another_company_is_permission_denied(sandbox_url, company):
    client = UpstreamClient(sandbox_url, company.tokens["admin"], company.id + 10_000)
    with pytest.raises(PermissionDenied):
        client.get(INFO)


def test_without_a_company_the_token_names_its_own(sandbox_url, company):
    client = UpstreamClient(sandbox_url, company.tokens["viewer"], None)
    assert client.get(INFO)["id"] == company.id


def test_unknown_path_raises_not_found(client_for):
    with pytest.raises(NotFound):
        client_for().get("/2/no-such-thing/")


def test_validation_error_from_the_sandbox(client_for, company):
    with pytest.raises(Exception) as caught:
        client_for().patch(f"/2/company-info/update/{company.id}/", json={"enable_vat_period": 3})
    assert caught.value.field_errors == {"enable_vat_period": ["Must be a valid boolean."]}


def test_request_headers_name_the_company_and_the_application(sandbox_url, company, sandbox_log):
    stats = CallStats(request_id="req-123")
    UpstreamClient(
        sandbox_url, company.tokens["admin"], company.id,
        company_header="Quick-Company-Id", stats=stats,
    ).get(INFO)
    [entry] = sandbox_log.entries(method="GET", path=INFO, company_id=company.id)
    assert entry["status"] == 200
    assert entry["company_id"] == company.id


def test_the_log_here_counts_only_this_companys_requests(sandbox_url, company, make_company,
                                                        sandbox_log):
    other = make_company()
    UpstreamClient(sandbox_url, other.tokens["admin"], other.id).get(INFO)
    UpstreamClient(sandbox_url, company.tokens["admin"], company.id).get(INFO)
    assert [entry["company_id"] for entry in sandbox_log.entries(path=INFO)] == [company.id]
