"""Run the store's Alembic migrations to head, safely when several processes start at once.

To add a migration after changing models.py:
    .venv/bin/python -c "from app.store.migrate import new_revision; new_revision('what changed')"
then review the generated file in app/store/migrations/versions/.
"""

from __future__ import annotations

import tempfile
import threading
import zlib
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from app.store.engine import is_sqlite_memory, make_engine, make_sqlite_locking_engine

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# Any fixed 64-bit number works; deriving it from a name keeps it recognisable in pg_locks.
ADVISORY_LOCK_ID = zlib.crc32(b"bookdesk.store.migrations")
# Alembic's `context` is a module-global proxy, so two threads must never migrate at once.
_THREAD_LOCK = threading.Lock()


def alembic_config() -> Config:
    """Return an Alembic Config for the migrations shipped inside this package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str | None:
    """Return the newest revision id of the shipped migrations."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """Return the revision the database is at (None when never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade_to_head(engine: Engine) -> None:
    """Migrate the engine's database to head in one transaction, holding a migration lock."""
    migration_engine = _migration_engine(engine)
    try:
        with _THREAD_LOCK, migration_engine.begin() as conn:
            _take_lock(conn)
            config = alembic_config()
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    finally:
        if migration_engine is not engine:
            migration_engine.dispose()


def new_revision(message: str) -> None:
    """Autogenerate a revision from the models' difference to a scratch database at head."""
    with tempfile.TemporaryDirectory() as scratch:
        engine = make_engine(f"sqlite:///{scratch}/scratch.db")
        upgrade_to_head(engine)
        with engine.begin() as conn:
            config = alembic_config()
            config.attributes["connection"] = conn
            command.revision(config, message=message, autogenerate=True)
        engine.dispose()


def _migration_engine(engine: Engine) -> Engine:
    """Return the engine to migrate with: on a SQLite file, one that locks at BEGIN."""
    if engine.dialect.name != "sqlite" or is_sqlite_memory(engine.url):
        return engine
    # BEGIN IMMEDIATE makes a second starting process wait, then find the schema at head.
    return make_sqlite_locking_engine(engine.url)


def _take_lock(conn: Connection) -> None:
    """Serialise concurrent migrators on PostgreSQL (released at commit)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": ADVISORY_LOCK_ID})
