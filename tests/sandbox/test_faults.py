"""Sandbox-only fault injection and request log (issue 4, item 7)."""
import time

import pytest
import requests

from tests.sandbox.incomes_support import make_income


def test_status_fault_fires_count_times_then_stops(api, faults):
    faults.add(path="/2/company-info*", kind="status", status=503, count=2)
    codes = [api.get("/2/company-info/").status_code for _ in range(3)]
    assert codes == [503, 503, 200]


def test_429_fault_carries_retry_after(api, faults):
    faults.add(path="/2/*", kind="status", status=429, retry_after=3, count=1)
    resp = api.get("/2/company-info/")
    assert resp.status_code == 429
    assert resp.headers["Retry-After"] == "3"


def test_latency_fault_delays_the_answer(api, faults):
    faults.add(path="/2/company-info*", kind="latency", latency_ms=200)
    started = time.perf_counter()
    assert api.get("/2/company-info/").status_code == 200
    assert time.perf_counter() - started >= 0.2


def test_reset_fault_gives_no_response(api, faults):
    faults.add(path="/2/company-info*", kind="reset", count=1)
    with pytest.raises(requests.ConnectionError):
        api.get("/2/company-info/")


def test_reset_after_commits_the_write_but_loses_the_response(api, faults, sandbox_log):
    faults.add(path="/2/company-info/update/*", method="PATCH", kind="reset_after", count=1)
    with pytest.raises(requests.ConnectionError):
        api.patch(f"/2/company-info/update/{api.company.id}/", json={"enable_vat_period": True})
    assert api.get("/2/company-info/").json()["enable_vat_period"] is True
    assert len(sandbox_log.entries(method="PATCH", sent_for=api.company.id)) == 1


def test_malformed_fault_returns_broken_json(api, faults):
    faults.add(path="/2/company-info*", kind="malformed", count=1)
    resp = api.get("/2/company-info/")
    assert resp.status_code == 200
    with pytest.raises(ValueError):
        resp.json()


def test_ignore_query_fault_passes_the_named_parameters_over(api, faults):
    def count(**params) -> int:
        return api.get("/1/incomes", params={"page_size": 1, **params}).json()["count"]
    make_income(api, issued_at="2026-03-02")
    assert count(date_field="issued_at", from_date="1990-01-01", to_date="1990-01-01") == 0
    every = count()
    faults.add(path="/1/incomes", kind="ignore_query", params=["from_date", "to_date"],
               count=1)
    assert every > 0
    assert count(date_field="issued_at", from_date="1990-01-01", to_date="1990-01-01") == every
    assert count(date_field="issued_at", from_date="1990-01-01", to_date="1990-01-01") == 0


def test_rate_below_one_hits_some_requests_only(api, faults):
    faults.add(path="/2/company-info*", kind="status", status=500, rate=0.5)
    codes = [api.get("/2/company-info/").status_code for _ in range(40)]
    assert 5 < codes.count(500) < 35


def test_unknown_fault_kind_is_refused(sandbox_url):
    resp = requests.post(f"{sandbox_url}/_sandbox/faults/", json={"kind": "explode"}, timeout=5)
    assert resp.status_code == 400


def test_request_log_records_method_path_query_and_timing(api, sandbox_log):
    api.get("/2/company-info/?x=1%2B2", headers={"X-Application": "tests",
                                                  "X-Request-Id": "bench-1"})
    [entry] = sandbox_log.entries(company_id=api.company.id)
    assert entry["method"] == "GET" and entry["path"] == "/2/company-info/"
    assert entry["args"] == {"x": ["1+2"]}
    assert entry["headers"]["X-Application"] == "tests"
    # bench.page_cost matches a page's calls to it by the request id Bookdesk sends.
    assert entry["headers"]["X-Request-Id"] == "bench-1"
    assert entry["duration_ms"] >= 0 and "Authorization" not in entry["headers"]

