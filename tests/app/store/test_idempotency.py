"""One-time form keys: one winner under concurrency, failed keys retriable, old keys purged."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from app.store.db import Store, utcnow
from app.store.idempotency import (
    Claim,
    KeyMismatchError,
    claim,
    claim_waiting,
    fail,
    finish,
    new_key,
    purge_expired,
    unknown,
)

THREADS = 8


def _claim_at_once(store: Store, key: str, company_id: int = 1) -> list[Claim]:
    """Claim key from THREADS threads, each with its own session, released together."""
    barrier = threading.Barrier(THREADS)

    def one() -> Claim:
        with store.sessions() as s:
            barrier.wait(timeout=30)
            return claim(key, company_id, "income_create", session=s)

    with ThreadPoolExecutor(THREADS) as pool:
        return [f.result() for f in [pool.submit(one) for _ in range(THREADS)]]


def test_new_keys_are_random_url_safe_and_fit_the_column() -> None:
    keys = {new_key() for _ in range(100)}
    assert len(keys) == 100
    assert all(len(k) <= 64 and k.replace("-", "").replace("_", "").isalnum() for k in keys)


def test_second_claim_of_a_key_says_the_first_is_still_pending(session: Session) -> None:
    key = new_key()
    assert claim(key, 1, "income_create", session=session) == Claim(True, "pending")
    second = claim(key, 1, "income_create", session=session)
    assert (second.first, second.pending, second.result) == (False, True, None)


def test_claim_after_finish_returns_the_result_to_redirect_to(session: Session) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    assert finish(key, {"id": 42, "url": "/c/1/incomes/42"}, session=session)
    again = claim(key, 1, "income_create", session=session)
    assert (again.first, again.done) == (False, True)
    assert again.result == {"id": 42, "url": "/c/1/incomes/42"}


def test_a_failed_key_can_be_claimed_again(session: Session) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    assert fail(key, session=session)
    assert claim(key, 1, "income_create", session=session).first
    assert not claim(key, 1, "income_create", session=session).first


def test_finish_and_fail_only_apply_to_pending_keys(session: Session) -> None:
    key = new_key()
    assert not finish(key, {"id": 1}, session=session)
    claim(key, 1, "income_create", session=session)
    finish(key, {"id": 1}, session=session)
    assert not fail(key, session=session)
    assert claim(key, 1, "income_create", session=session).result == {"id": 1}


def test_a_key_issued_for_another_company_or_form_is_refused(session: Session) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    with pytest.raises(KeyMismatchError):
        claim(key, 2, "income_create", session=session)
    with pytest.raises(KeyMismatchError):
        claim(key, 1, "expense_create", session=session)


def test_concurrent_claims_of_one_key_have_exactly_one_winner(store: Store) -> None:
    for _ in range(3):
        claims = _claim_at_once(store, new_key())
        assert sum(c.first for c in claims) == 1
        assert all(c.pending for c in claims)


def test_concurrent_reclaims_of_a_failed_key_have_exactly_one_winner(
    store: Store, session: Session
) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    fail(key, session=session)
    claims = _claim_at_once(store, key)
    assert sum(c.first for c in claims) == 1


def test_an_unknown_key_is_handed_to_one_claimer_with_its_note(
    store: Store, session: Session
) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    assert unknown(key, {"sent_at": "2025-03-05T10:00:00+00:00"}, session=session)
    claims = _claim_at_once(store, key)
    [winner] = [c for c in claims if c.first]
    assert (winner.unknown, winner.result) == (True, {"sent_at": "2025-03-05T10:00:00+00:00"})
    assert all(c.pending and not c.unknown for c in claims if not c.first)


def test_an_unknown_key_taken_over_can_finish_fail_or_stay_unknown(session: Session) -> None:
    outcomes = {"done": lambda k: finish(k, {"url": "/x"}, session=session),
                "failed": lambda k: fail(k, session=session),
                "unknown": lambda k: unknown(k, {"n": 1}, session=session)}
    for state, end in outcomes.items():
        key = new_key()
        claim(key, 1, "income_create", session=session)
        unknown(key, {"n": 1}, session=session)
        assert claim(key, 1, "income_create", session=session).unknown
        assert end(key)
        again = claim(key, 1, "income_create", session=session)
        assert again.state == ("pending" if state == "failed" else state)
        assert again.first is (state != "done")


def test_only_a_pending_key_can_become_unknown(session: Session) -> None:
    key = new_key()
    assert not unknown(key, session=session)
    claim(key, 1, "income_create", session=session)
    finish(key, {"url": "/x"}, session=session)
    assert not unknown(key, session=session)
    assert claim(key, 1, "income_create", session=session).done


def test_keys_older_than_a_day_are_purged(session: Session) -> None:
    keys = [new_key(), new_key()]
    for key in keys:
        claim(key, 1, "income_create", session=session)
    assert purge_expired(now=utcnow() + timedelta(hours=23), session=session) == 0
    purged = purge_expired(now=utcnow() + timedelta(days=1, seconds=1), session=session)
    assert purged == 2
    assert claim(keys[0], 1, "income_create", session=session).first


def test_a_waiting_claim_returns_the_first_submits_result_once_it_finishes(
    store: Store, session: Session
) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    timer = threading.Timer(0.3, lambda: finish(key, {"url": "/done"}, session=session))
    timer.start()
    with store.sessions() as other:
        found = claim_waiting(key, 1, "income_create", step=0.05, session=other)
    timer.join()
    assert (found.first, found.done, found.result) == (False, True, {"url": "/done"})


def test_a_waiting_claim_takes_over_a_key_whose_first_submit_failed(
    store: Store, session: Session
) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    timer = threading.Timer(0.3, lambda: fail(key, session=session))
    timer.start()
    with store.sessions() as other:
        found = claim_waiting(key, 1, "income_create", step=0.05, session=other)
    timer.join()
    assert found.first


def test_a_waiting_claim_gives_up_while_the_first_is_still_pending(session: Session) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    found = claim_waiting(key, 1, "income_create", timeout=0.2, step=0.05, session=session)
    assert (found.first, found.pending) == (False, True)


def test_a_waiting_claim_refuses_a_key_of_another_form(session: Session) -> None:
    key = new_key()
    claim(key, 1, "income_create", session=session)
    with pytest.raises(KeyMismatchError):
        claim_waiting(key, 1, "expense_create", session=session)
