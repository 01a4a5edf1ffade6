"""Engine, sessions and Flask wiring for Bookdesk's own database."""

from __future__ import annotations

import os
from dataclasses import dataclass

from flask import Flask, current_app, g
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.store.engine import is_sqlite_memory, make_engine
from app.store.migrate import upgrade_to_head

EXTENSION = "bookdesk.store"
_G_SESSION = "bookdesk_store_session"


@dataclass(frozen=True)
class Store:
    """The store's engine and session factory, kept in app.extensions."""

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


def init_app(app: Flask) -> Store:
    """Open the store from DATABASE_URL, migrate it to head and wire per-request sessions."""
    url = app.config.get("DATABASE_URL") or default_url(app.instance_path)
    store = make_store(url)
    app.extensions[EXTENSION] = store
    app.teardown_appcontext(_close_session)
    _purge_expired_keys(store)
    # Workers forked after start-up (gunicorn --preload) must not share these connections;
    # an in-memory database lives only in its one connection, so it is kept.
    if not is_sqlite_memory(store.engine.url):
        store.engine.dispose()
    return store


def _purge_expired_keys(store: Store) -> None:
    # Imported here: idempotency builds on this module.
    from app.store.idempotency import purge_expired

    with store.sessions() as session:
        purge_expired(session=session)


def clear_records(store: Store) -> None:
    """Delete every row of Bookdesk's own records: form keys, review log, policy history."""
    from app.store.models import Base

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
