"""Failed sign-ins are rate-limited per client and per account (app/auth/flow.py).

Only failures count, so a client that signs in a lot is never throttled; once a limit is
reached the form answers 429 with a message and Retry-After, without asking the upstream.
"""
from __future__ import annotations

import pytest
import redis

from app import create_app
from tests.app.conftest import sign_in
from tests.support.processes import redis_server  # noqa: F401 (fixture)

THROTTLED = "Too many failed sign-ins."


def _client_at(app, address: str):
    """A test client whose requests come from address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _wrong(client, company, token="wrong-token-0000", **kwargs):
    return sign_in(client, company, token=token, **kwargs)


def test_many_wrong_tokens_from_one_client_are_refused_after_the_limit(app, company,
                                                                         sandbox_log):
    client = app.test_client()
    statuses = [_wrong(client, company, token=f"wrong-{n}").status_code for n in range(10)]
    assert statuses == [400] * 10
    sandbox_log.reset()
    refused = _wrong(client, company, token="wrong-10")
    assert refused.status_code == 429
    assert THROTTLED in refused.get_data(as_text=True)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert sign_in(client, company).status_code == 429
    assert not sandbox_log.entries(path="/2/company-info", sent_for=company.id)


def test_a_right_token_from_another_client_still_signs_in(app, company):
    for n in range(11):
        _wrong(app.test_client(), company, token=f"wrong-{n}")
    other = _client_at(app, "10.9.8.7")
    assert sign_in(other, company).status_code == 303
    assert other.get(f"/c/{company.id}/").status_code == 200


def test_one_token_tried_from_many_clients_hits_the_account_limit(app_config, company):
    app = create_app({**app_config, "SIGN_IN_FAILURES_PER_ACCOUNT": "3 per hour"})
    for n in range(3):
        client = _client_at(app, f"10.0.0.{n}")
        assert _wrong(client, company, token="revoked-token").status_code == 400
    fresh = _client_at(app, "10.0.0.99")
    assert _wrong(fresh, company, token="revoked-token").status_code == 429
    assert sign_in(fresh, company).status_code == 303


def test_successful_sign_ins_are_never_throttled(app, company):
    client = app.test_client()
    for _ in range(25):
        assert sign_in(client, company).status_code == 303


def test_a_token_of_another_company_counts_as_a_failure(app_config, company, make_company):
    app = create_app({**app_config, "SIGN_IN_FAILURES_PER_CLIENT": "2 per minute"})
    client, other = app.test_client(), make_company()
    for _ in range(2):
        assert sign_in(client, company, company_id=other.id).status_code == 403
    assert sign_in(client, company).status_code == 429


def test_the_throttled_page_is_translated(app_config, company):
    app = create_app({**app_config, "DEFAULT_LOCALE": "hu",
                      "SIGN_IN_FAILURES_PER_CLIENT": "1 per minute"})
    client = app.test_client()
    _wrong(client, company)
    refused = _wrong(client, company)
    assert refused.status_code == 429
    assert "Túl sok sikertelen bejelentkezés" in refused.get_data(as_text=True)


@pytest.mark.redis
@pytest.mark.xdist_group("redis")
def test_with_sessions_in_redis_the_failures_are_counted_there_for_every_worker(
        app_config, company, redis_server):  # noqa: F811 (fixture)
    config = {**app_config, "SESSION_REDIS_URL": redis_server.url,
              "SIGN_IN_FAILURES_PER_CLIENT": "4 per minute"}
    redis.Redis.from_url(redis_server.url).flushdb()
    first, second = create_app(config), create_app(config)
    for n in range(2):
        _wrong(first.test_client(), company, token=f"wrong-{n}")
        _wrong(second.test_client(), company, token=f"wrong-{n + 2}")
    assert _wrong(first.test_client(), company).status_code == 429
    keys = redis.Redis.from_url(redis_server.url).keys("*sign-in*")
    assert keys, "the limiter keeps no counters in Redis"
