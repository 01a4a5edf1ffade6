"""The store's database: Bookdesk's own records (one-time form keys, the review log and policy
versions) as SQLAlchemy tables, the engine, migrations to head, per-request sessions.

Engines for the store: SQLite tuned for several web workers, anything else as given.

Run the store's Alembic migrations to head, safely when several processes start at once.

To add a migration after changing the tables here:
    .venv/bin/python -c "from app.store.db import new_revision; new_revision('what changed')"
then review the generated file in app/store/migrations/versions/.
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g
from sqlalchemy import (
    JSON,
    URL,
    BigInteger,
    CheckConstraint,
    Connection,
    DateTime,
    Engine,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import NullPool, StaticPool

# -- the tables -----------------------------------------------------------------------------------

FORM_KEY_STATES = ("pending", "done", "failed")

# Explicit constraint names keep Alembic migrations identical on SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back as an aware UTC datetime."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        # SQLite keeps no zone: what it returns was stored as UTC.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base of the store's models."""

    metadata = MetaData(naming_convention=NAMING)


class FormKey(Base):
    """A one-time key that makes a create form's submit take effect at most once."""

    __tablename__ = "form_keys"
    __table_args__ = (
        CheckConstraint(
            "state IN ('pending', 'done', 'failed', 'unknown')", name="state"
        ),
        Index("ix_form_keys_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    purpose: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), default="pending")
    result: Mapped[Any | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ReviewAction(Base):
    """One review action on one or more incomes, with what undo needs to revert it."""

    __tablename__ = "review_actions"
    __table_args__ = (Index("ix_review_actions_company_id_id", "company_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    actor: Mapped[str] = mapped_column(String(200))
    actor_fp: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    income_ids: Mapped[list[int]] = mapped_column(JSON)
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Each income's invoice number as the reviewer saw it (None on entries older than 0003).
    numbers: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    undone_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    undone_by_fp: Mapped[str | None] = mapped_column(String(16), nullable=True)


class PolicyVersion(Base):
    """A saved income-policy configuration; a null config records a deletion."""

    __tablename__ = "policy_versions"
    __table_args__ = (Index("ix_policy_versions_company_id_id", "company_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    company_id: Mapped[int] = mapped_column(BigInteger)
    config: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )
    actor: Mapped[str] = mapped_column(String(200))
    actor_fp: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


# -- the engine and sessions ----------------------------------------------------------------------

SQLITE_BUSY_TIMEOUT_MS = 30_000


def is_sqlite_memory(url: URL) -> bool:
    """Tell whether url names an in-memory SQLite database."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def make_engine(url: str | URL) -> Engine:
    """Create an engine for url; SQLite gets WAL, a busy timeout and cross-thread use."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    memory = is_sqlite_memory(parsed)
    if not memory:
        os.makedirs(os.path.dirname(os.path.abspath(parsed.database)), exist_ok=True)
    engine = create_engine(
        parsed,
        connect_args=_sqlite_connect_args(),
        # One shared connection is the only way threads see the same in-memory database.
        poolclass=StaticPool if memory else None,
    )
    event.listen(engine, "connect", sqlite_pragmas)
    return engine


def make_sqlite_locking_engine(url: URL) -> Engine:
    """Create a SQLite engine whose transactions take the write lock at BEGIN."""
    engine = create_engine(url, poolclass=NullPool, connect_args=_sqlite_connect_args())

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, record: Any) -> None:
        sqlite_pragmas(dbapi_conn, record)
        # Let SQLAlchemy emit BEGIN itself, so DDL runs inside the transaction too.
        dbapi_conn.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _sqlite_connect_args() -> dict[str, Any]:
    return {"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Set the per-connection SQLite pragmas the store relies on."""
    cursor = dbapi_conn.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    # WAL lets readers run while a worker writes; NORMAL sync is safe under WAL.
    _set_wal(cursor)
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _set_wal(cursor: Any) -> None:
    # Switching a fresh file to WAL can fail with "database is locked" at once, without the busy
    # handler, while another process switches it too: retry within the busy timeout.
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)




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




EXTENSION = "bookdesk.store"
_G_SESSION = "bookdesk_store_session"


@dataclass(frozen=True)
class Store:
    """The store's engine and session factory, kept in current_app.extensions."""

    engine: Engine
    sessions: sessionmaker[Session]


def default_url(instance_path: str) -> str:
    """Return the default database URL: SQLite in the instance folder."""
    return f"sqlite:///{os.path.join(instance_path, 'bookdesk.db')}"


def make_store(url: str) -> Store:
    """Create the engine, migrate its database to head and return the Store."""
    engine = make_engine(url)
    upgrade_to_head(engine)
    return Store(engine, sessionmaker(engine, expire_on_commit=False))


def init_app(app: Flask, *, on_open: Iterable[Callable[..., Any]] = ()) -> Store:
    """Open the store from DATABASE_URL, migrate it to head and wire per-request sessions;
    each `on_open(session=...)` runs once on the fresh store (house-keeping)."""
    url = app.config.get("DATABASE_URL") or default_url(app.instance_path)
    store = make_store(url)
    app.extensions[EXTENSION] = store
    app.teardown_appcontext(_close_session)
    _on_open(store, on_open)
    # Workers forked after start-up (gunicorn --preload) must not share these connections;
    # an in-memory database lives only in its one connection, so it is kept.
    if not is_sqlite_memory(store.engine.url):
        store.engine.dispose()
    return store


def _on_open(store: Store, hooks: Iterable[Callable[..., Any]]) -> None:
    for hook in hooks:
        with store.sessions() as session:
            hook(session=session)


def clear_records(store: Store) -> None:
    """Delete every row of Bookdesk's own records: form keys, review log, policy history."""
    with store.sessions.begin() as session:
        for table in reversed(Base.metadata.sorted_tables):
            session.execute(table.delete())


def current_store() -> Store:
    """Return the Store of the current Flask app."""
    try:
        return current_app.extensions[EXTENSION]
    except KeyError:
        raise RuntimeError("app.store.init_app(app) was not called") from None


def store_session() -> Session:
    """Return this app context's store session, opened on first use and closed at teardown."""
    if _G_SESSION not in g:
        setattr(g, _G_SESSION, current_store().sessions())
    return getattr(g, _G_SESSION)


def session_or_current(session: Session | None) -> Session:
    """Return session when given, else the current request's store session."""
    return session if session is not None else store_session()


def _close_session(_exc: BaseException | None) -> None:
    session = g.pop(_G_SESSION, None)
    if session is not None:
        session.close()
