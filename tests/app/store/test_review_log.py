"""The review log records who did what, lists per company, and lets an action be undone once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy.orm import Session

from app.store.db import Store
from app.store.history import (
    Actor,
    actor_for,
    get_action,
    mark_undone,
    recent_actions,
    record_action,
)

ANNA = actor_for("Anna", "secret-token-anna", "app-secret")
BELA = actor_for("Béla", "secret-token-bela", "app-secret")


def _record(session: Session, company_id: int = 1, kind: str = "done", actor: Actor = ANNA):
    before = {"7": {"revenue_type": None, "tags": []}}
    after = {"7": {"revenue_type": 3, "tags": [1, 2]}}
    return record_action(company_id, actor, kind, [7], before, after, session=session)


def test_recorded_action_reads_back_with_its_before_and_after(session: Session) -> None:
    action = _record(session)
    got = get_action(1, action.id, session=session)
    assert got is not None
    assert (got.actor, got.actor_fp, got.kind) == ("Anna", ANNA.fp, "done")
    assert got.income_ids == [7]
    assert got.before == {"7": {"revenue_type": None, "tags": []}}
    assert got.after == {"7": {"revenue_type": 3, "tags": [1, 2]}}
    assert got.created_at.tzinfo is not None
    assert got.undone_at is None


def test_the_log_stores_a_fingerprint_never_the_token(store: Store, session: Session) -> None:
    _record(session)
    with store.engine.connect() as conn:
        row = conn.exec_driver_sql("SELECT * FROM review_actions").one()
    assert "secret-token-anna" not in repr(tuple(row))
    assert len(row.actor_fp) == 16


def test_recent_actions_are_newest_first_and_only_the_companys_own(session: Session) -> None:
    first = _record(session, kind="done")
    _record(session, company_id=2, kind="skip")
    last = _record(session, kind="bulk_done")
    assert [a.id for a in recent_actions(1, session=session)] == [last.id, first.id]
    assert [a.id for a in recent_actions(1, limit=1, session=session)] == [last.id]


def test_another_companys_action_is_not_found(session: Session) -> None:
    action = _record(session, company_id=2)
    assert get_action(1, action.id, session=session) is None
    assert not mark_undone(1, action.id, ANNA, session=session)
    assert get_action(2, action.id, session=session).undone_at is None


def test_an_action_is_undone_once_and_remembers_by_whom(session: Session) -> None:
    action = _record(session)
    assert mark_undone(1, action.id, BELA, session=session)
    assert not mark_undone(1, action.id, ANNA, session=session)
    got = get_action(1, action.id, session=session)
    assert got.undone_at is not None
    assert (got.undone_by, got.undone_by_fp) == ("Béla", BELA.fp)


def test_concurrent_undos_of_one_action_have_exactly_one_winner(
    store: Store, session: Session
) -> None:
    action = _record(session)
    barrier = threading.Barrier(4)

    def undo() -> bool:
        with store.sessions() as s:
            barrier.wait(timeout=30)
            return mark_undone(1, action.id, BELA, session=s)

    with ThreadPoolExecutor(4) as pool:
        results = [f.result() for f in [pool.submit(undo) for _ in range(4)]]
    assert results.count(True) == 1
