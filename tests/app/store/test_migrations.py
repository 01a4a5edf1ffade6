"""Migrations reach head on both backends, match the models, and survive concurrent starts."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from app.store.db import Base, Store, current_revision, head_revision, make_engine, make_store

TABLES = {"form_keys", "review_actions", "policy_versions"}


def test_migrations_bring_an_empty_database_to_head_with_all_tables(store: Store) -> None:
    tables = set(inspect(store.engine).get_table_names())
    assert tables >= TABLES | {"alembic_version"}
    assert head_revision() is not None
    assert current_revision(store.engine) == head_revision()


def test_migrations_create_the_unique_key_and_company_indexes(store: Store) -> None:
    insp = inspect(store.engine)
    unique = [set(c["column_names"]) for c in insp.get_unique_constraints("form_keys")]
    assert {"key"} in unique
    for table in ("review_actions", "policy_versions"):
        columns = [ix["column_names"] for ix in insp.get_indexes(table)]
        assert ["company_id", "id"] in columns
    assert ["created_at"] in [ix["column_names"] for ix in insp.get_indexes("form_keys")]


def test_models_match_what_the_migrations_create(store: Store) -> None:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


def test_migrating_a_database_already_at_head_changes_nothing(db_url: str, store: Store) -> None:
    again = make_store(db_url)
    try:
        assert current_revision(again.engine) == head_revision()
    finally:
        again.engine.dispose()


def test_processes_starting_at_once_all_end_up_at_head(db_url: str) -> None:
    start_at = time.time() + 3
    script = textwrap.dedent(f"""
        import time
        from app.store.db import make_store
        time.sleep(max(0, {start_at} - time.time()))
        make_store({db_url!r}).engine.dispose()
    """)
    procs = [
        subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    engine = make_engine(db_url)
    try:
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()
