"""Engine, per-request session and transaction rule of the sandbox."""
from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite gets WAL, foreign keys and thread sharing."""
    kwargs: dict = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        if url in ("sqlite://", "sqlite:///:memory:"):
            kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
    # SQLite's LIKE and lower() fold ASCII only; text filters match "BÉTA" to "Béta" like live.
    dbapi_conn.create_function("casefold", 1, _casefold, deterministic=True)


def _casefold(value):
    return value.casefold() if isinstance(value, str) else value


def init_app(app: Flask, url: str) -> None:
    """Bind an engine and session factory to the app; commit on success, roll back otherwise."""
    engine = make_engine(url)
    app.extensions["sandbox_engine"] = engine
    app.extensions["sandbox_sessionmaker"] = sessionmaker(engine, expire_on_commit=False)
    app.after_request(_finish_transaction)
    app.teardown_appcontext(_close_session)


def db() -> Session:
    """The current request's session (one request, one transaction)."""
    if "sandbox_db" not in g:
        g.sandbox_db = current_app.extensions["sandbox_sessionmaker"]()
    return g.sandbox_db


def _finish_transaction(response):
    session = g.get("sandbox_db")
    if session is not None:
        if response.status_code < 400:
            session.commit()
        else:
            session.rollback()
    return response


def _close_session(_exc) -> None:
    session = g.pop("sandbox_db", None)
    if session is not None:
        session.close()
