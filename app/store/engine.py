"""Engines for the store: SQLite tuned for several web workers, anything else as given."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool, StaticPool

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
