"""Flask wiring: init_app migrates at start, and each app context gets one store session."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import inspect

from app.store import idempotency, init_app, store_session
from app.store.db import current_revision, current_store, head_revision


def _app(tmp_path: Path, **config: str) -> Flask:
    app = Flask(__name__, instance_path=str(tmp_path / "instance"))
    app.config.update(config)
    return app


def test_without_database_url_the_store_is_sqlite_in_the_instance_folder(tmp_path: Path) -> None:
    app = _app(tmp_path)
    store = init_app(app)
    assert (tmp_path / "instance" / "bookdesk.db").is_file()
    assert current_revision(store.engine) == head_revision()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


def test_database_url_from_config_is_used(tmp_path: Path) -> None:
    init_app(_app(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'other.db'}"))
    assert (tmp_path / "other.db").is_file()
    assert not (tmp_path / "instance" / "bookdesk.db").exists()


def test_one_session_per_app_context_closed_at_teardown(tmp_path: Path) -> None:
    app = _app(tmp_path)
    init_app(app)
    with app.app_context():
        session = store_session()
        assert store_session() is session
        idempotency.claim(idempotency.new_key(), 1, "income_create")
        assert session.in_transaction() is False
    with app.app_context():
        assert store_session() is not session


def test_repository_functions_use_the_request_session(tmp_path: Path) -> None:
    app = _app(tmp_path)
    init_app(app)
    key = idempotency.new_key()
    with app.test_request_context():
        assert idempotency.claim(key, 1, "income_create").first
    with app.test_request_context():
        assert not idempotency.claim(key, 1, "income_create").first


def test_in_memory_sqlite_is_shared_by_all_sessions(tmp_path: Path) -> None:
    app = _app(tmp_path, DATABASE_URL="sqlite://")
    init_app(app)
    key = idempotency.new_key()
    with app.app_context():
        assert "form_keys" in inspect(current_store().engine).get_table_names()
        idempotency.claim(key, 1, "income_create")
    with app.app_context():
        assert not idempotency.claim(key, 1, "income_create").first


def test_store_session_without_init_app_says_what_is_missing(tmp_path: Path) -> None:
    with _app(tmp_path).app_context(), pytest.raises(RuntimeError, match="init_app"):
        store_session()


def test_init_app_leaves_no_pooled_connection_for_forked_workers(tmp_path: Path) -> None:
    store = init_app(_app(tmp_path))
    assert store.engine.pool.checkedin() == 0
