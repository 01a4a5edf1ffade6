"""Policy versions: saved per company, newest first, a deletion kept as a null config."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.store.db import Store
from app.store.history import actor_for, add_version, get_version, latest_version, list_versions

ANNA = actor_for("Anna", "secret-token-anna", "app-secret")
CONFIG = {
    "v": 2,
    "skip_for_multiple_match": False,
    "policies": [{"name": "Rent", "enabled": True, "match": "all", "conditions": [],
                  "set": {"revenue_type": 3}}],
    "ignore_policies": [],
    "unknown_key": {"kept": "on save"},
}


def test_a_saved_version_reads_back_unchanged_with_who_and_note(session: Session) -> None:
    version = add_version(1, CONFIG, ANNA, note="Added rent", session=session)
    got = get_version(1, version.id, session=session)
    assert got.config == CONFIG
    assert (got.actor, got.actor_fp, got.note) == ("Anna", ANNA.fp, "Added rent")
    assert got.created_at.tzinfo is not None


def test_a_deleted_configuration_is_stored_as_sql_null(store: Store, session: Session) -> None:
    version = add_version(1, None, ANNA, session=session)
    assert get_version(1, version.id, session=session).config is None
    with store.engine.connect() as conn:
        nulls = conn.exec_driver_sql(
            "SELECT count(*) FROM policy_versions WHERE config IS NULL"
        ).scalar()
    assert nulls == 1


def test_versions_are_listed_newest_first_per_company(session: Session) -> None:
    first = add_version(1, CONFIG, ANNA, session=session)
    add_version(2, CONFIG, ANNA, session=session)
    last = add_version(1, None, ANNA, session=session)
    assert [v.id for v in list_versions(1, session=session)] == [last.id, first.id]
    assert [v.id for v in list_versions(1, limit=1, session=session)] == [last.id]
    assert latest_version(1, session=session).id == last.id
    assert latest_version(3, session=session) is None


def test_another_companys_version_is_not_found(session: Session) -> None:
    version = add_version(2, CONFIG, ANNA, session=session)
    assert get_version(1, version.id, session=session) is None
