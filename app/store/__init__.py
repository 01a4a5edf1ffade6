"""Bookdesk's own records (SQLAlchemy models + Alembic migrations)."""

from app.store.db import init_app, store_session
from app.store.identity import Actor, actor_for, fingerprint

__all__ = ["Actor", "actor_for", "fingerprint", "init_app", "store_session"]
