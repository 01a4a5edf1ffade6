"""Bookdesk's own records (SQLAlchemy models + Alembic migrations).

Modules: db (the tables, the engine, migrations, per-request sessions), history (actors, the
review log, policy versions), idempotency (one-time form keys).
"""

from flask import Flask

from app.store import db
from app.store.db import Store, store_session
from app.store.history import Actor, actor_for, fingerprint
from app.store.idempotency import purge_expired

__all__ = ["Actor", "actor_for", "fingerprint", "init_app", "store_session"]


def init_app(app: Flask) -> Store:
    """Open the store (db.init_app) and drop the form keys past their lifetime."""
    return db.init_app(app, on_open=(purge_expired,))
