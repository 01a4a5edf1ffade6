"""Store fixtures: a SQLite file per test, and one real PostgreSQL server per test session.

The PostgreSQL server is started from /usr/lib/postgresql/*/bin when installed. Without it the
postgres-marked tests fail when CI is set, and are skipped only on a developer machine.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.store.db import Store, make_store

PG_BIN_GLOB = "/usr/lib/postgresql/*/bin/initdb"
PG_USER = "postgres"
_db_numbers = itertools.count(1)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgres",
        id="postgres",
        marks=[pytest.mark.postgres, pytest.mark.xdist_group("postgres")],
    ),
]


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _pg_bindir() -> Path | None:
    found = glob.glob(PG_BIN_GLOB)
    if not found:
        return None
    newest = max(found, key=lambda p: [int(n) for n in Path(p).parts[-3].split(".")])
    return Path(newest).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PgServer:
    """A throwaway PostgreSQL cluster in a temp dir, reachable on 127.0.0.1 with trust auth."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="bookdesk-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.sockets.mkdir()
        self.port = 0
        # PostgreSQL refuses to run as root, so as root it runs as the postgres user.
        self.as_user = ["runuser", "-u", PG_USER, "--"] if os.geteuid() == 0 else []
        if self.as_user:
            for path in (self.root, self.sockets):
                shutil.chown(path, PG_USER, PG_USER)

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self.as_user, str(self.bindir / tool), *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"{tool} failed ({proc.returncode}): {proc.stderr or proc.stdout}")

    def start(self) -> None:
        """Create the cluster and start the server on a free port."""
        self._run("initdb", "-D", str(self.data), "-U", PG_USER, "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        for attempt in range(3):
            self.port = _free_port()
            options = (f"-p {self.port} -h 127.0.0.1 -k {self.sockets} -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off")
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                          "-w", "-t", "60", "-o", options, "start")
                return
            except RuntimeError:
                if attempt == 2:
                    raise RuntimeError((self.root / "server.log").read_text()) from None

    def stop(self) -> None:
        """Stop the server and delete the cluster."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str) -> str:
        """Return the SQLAlchemy URL of dbname on this server."""
        return f"postgresql+psycopg://{PG_USER}@127.0.0.1:{self.port}/{dbname}"

    def admin(self, sql: str) -> None:
        """Run one statement outside a transaction in the maintenance database."""
        import psycopg

        dsn = f"host=127.0.0.1 port={self.port} user={PG_USER} dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(sql)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """Start one PostgreSQL server for the session (fails in CI when not installed)."""
    bindir = _pg_bindir()
    if bindir is None:
        message = f"PostgreSQL is not installed (no {PG_BIN_GLOB})"
        if _in_ci():
            pytest.fail(message + "; CI must run the PostgreSQL tests", pytrace=False)
        pytest.skip(message)
    server = PgServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """Return the URL of a fresh, empty PostgreSQL database, dropped after the test."""
    name = f"store_test_{os.getpid()}_{next(_db_numbers)}"
    pg_server.admin(f'CREATE DATABASE "{name}"')
    yield pg_server.url(name)
    pg_server.admin(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Return the URL of an empty database, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bookdesk.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """Return a Store migrated to head on the test's database."""
    opened = make_store(db_url)
    yield opened
    opened.engine.dispose()


@pytest.fixture
def session(store: Store) -> Iterator[Session]:
    """Return a session on the test's store."""
    with store.sessions() as opened:
        yield opened
