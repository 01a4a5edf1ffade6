"""Upstream faults as the user meets them: through Bookdesk pages, with the sandbox's injection.

- a page survives two 503s on its reads (GETs are retried);
- upstream down (connection resets, or answers slower than the read timeout) gives the friendly
  "not reachable" page with the request id, no traceback, token or upstream detail, within the
  bound the retry settings imply (measured); a read that timed out is not asked again;
- a 429 storm with Retry-After is waited out up to the cap, then the friendly page; a Retry-After
  beyond the cap is not waited for at all.
"""
from __future__ import annotations

import re
import time
from collections import Counter

import pytest

from tests.app.conftest import signed_client

READ_TIMEOUT = 0.5
RETRIES = 2
BACKOFF = 0.05
MAX_RETRY_AFTER = 2
LATENCY = 1.5  # seconds: beyond the read timeout
SLACK = 1.5  # scheduling on a loaded 2-core machine; still below the injected latency
UPSTREAM_PATH = re.compile(r"(?<!/c)/[12]/[a-z-]+/?\?")
HTMX = {"HX-Request": "true", "HX-Current-URL": "http://localhost/"}


def worst_case_seconds(wait: float = BACKOFF) -> float:
    """Longest a page's parallel reads may take: every attempt times out, every wait is taken."""
    return (RETRIES + 1) * READ_TIMEOUT + sum(min(wait * 2 ** n, MAX_RETRY_AFTER)
                                              for n in range(RETRIES))


@pytest.fixture
def impatient(app_config, company):
    """A client of a Bookdesk with a short read timeout, signed in before any fault is on."""
    return signed_client(app_config, company, UPSTREAM_READ_TIMEOUT=READ_TIMEOUT,
                         UPSTREAM_RETRIES=RETRIES, UPSTREAM_BACKOFF=BACKOFF,
                         UPSTREAM_MAX_RETRY_AFTER=MAX_RETRY_AFTER)


def _timed_get(client, path: str, headers=None):
    started = time.perf_counter()
    response = client.get(path, headers=headers or {})
    return response, time.perf_counter() - started


def assert_friendly_unavailable(response, company, sandbox_url: str, status: int = 503) -> None:
    """A friendly error page with the request id shown; nothing internal or secret in it."""
    body = response.get_data(as_text=True)
    assert response.status_code == status
    assert response.headers["X-Request-Id"] in body
    for secret in ("Traceback", "Injected fault", company.tokens["admin"], sandbox_url,
                   "HTTPConnectionPool", "ReadTimeout", "ConnectionError"):
        assert secret not in body, f"{secret!r} shown to the user"
    assert not UPSTREAM_PATH.search(body), "an upstream path is shown to the user"


def test_a_page_survives_two_503s_on_its_reads(impatient, company, faults, sandbox_log):
    faults.add(path="/[12]/*", method="GET", kind="status", status=503, count=2)
    response = impatient.get(f"/c/{company.id}/")
    assert response.status_code == 200 and company.name in response.get_data(as_text=True)
    failed = [e for e in sandbox_log.entries(method="GET", sent_for=company.id)
              if e["status"] == 503]
    assert len(failed) == 2 and all(e["fault"] == "status" for e in failed)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_upstream_resetting_every_connection_gives_the_friendly_page_quickly(
        impatient, company, faults, sandbox_url, headers):
    faults.add(path="*", kind="reset")
    response, elapsed = _timed_get(impatient, f"/c/{company.id}/", headers)
    assert_friendly_unavailable(response, company, sandbox_url)
    assert elapsed < worst_case_seconds() + SLACK
    if headers:
        assert response.headers["HX-Retarget"] == "#messages"


def test_upstream_slower_than_the_read_timeout_gives_the_friendly_page_within_the_bound(
        impatient, company, faults, sandbox_url, sandbox_log):
    faults.add(path="*", kind="latency", latency_ms=int(LATENCY * 1000))
    response, elapsed = _timed_get(impatient, f"/c/{company.id}/")
    assert_friendly_unavailable(response, company, sandbox_url)
    assert READ_TIMEOUT <= elapsed < worst_case_seconds() + SLACK, elapsed
    # Let the abandoned upstream requests finish, so they land in this test's request log.
    time.sleep(max(0.0, worst_case_seconds() + LATENCY - elapsed) + 0.2)
    attempts = Counter(e["path"] + "?" + e["query"]
                       for e in sandbox_log.entries(method="GET", sent_for=company.id))
    assert attempts and max(attempts.values()) == 1, "a read that timed out is not asked again"


def test_a_429_storm_is_waited_out_up_to_the_cap_then_the_friendly_page(
        impatient, company, faults, sandbox_url, sandbox_log):
    faults.add(path="*", kind="status", status=429, retry_after=1)
    response, elapsed = _timed_get(impatient, f"/c/{company.id}/")
    assert_friendly_unavailable(response, company, sandbox_url, status=429)
    assert RETRIES * 1 <= elapsed < RETRIES * 1 + SLACK, elapsed
    attempts = Counter(e["path"] + "?" + e["query"]
                       for e in sandbox_log.entries(method="GET", sent_for=company.id)
                       if e["status"] == 429)
    assert attempts and max(attempts.values()) == RETRIES + 1, attempts


def test_a_retry_after_beyond_the_cap_is_not_waited_for(impatient, company, faults, sandbox_url):
    faults.add(path="*", kind="status", status=429, retry_after=60)
    response, elapsed = _timed_get(impatient, f"/c/{company.id}/")
    assert_friendly_unavailable(response, company, sandbox_url, status=429)
    assert "60" in response.get_data(as_text=True)
    assert elapsed < 1, elapsed
    assert int(response.headers["Retry-After"]) == 60
