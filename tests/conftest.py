"""Shared fixtures: a live sandbox over real HTTP, a fresh company per test, faults, request log."""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass

import pytest
import requests

from app import COMPANY_HEADERS
from sandbox.core.server import start


@pytest.fixture(scope="session")
def sandbox_server(tmp_path_factory):
    """One live sandbox per test worker, on a free loopback port."""
    db_path = tmp_path_factory.mktemp("sandbox") / "sandbox.db"
    server, url = start(port=0, db_path=str(db_path))
    yield url, db_path
    server.shutdown()


@pytest.fixture(scope="session")
def sandbox_url(sandbox_server) -> str:
    """Base URL of the live sandbox."""
    return sandbox_server[0]


@pytest.fixture(scope="session")
def sandbox_db_path(sandbox_server):
    """Path of the live sandbox's SQLite file (for white-box checks)."""
    return sandbox_server[1]


@dataclass
class SandboxCompany:
    """A company created for one test, with one token per role."""

    id: int
    name: str
    tokens: dict[str, str]


def create_company(sandbox_url: str, **spec) -> SandboxCompany:
    """Create a fresh company in the sandbox (roles: admin, bookkeeper, viewer, no_2fa)."""
    resp = requests.post(f"{sandbox_url}/_sandbox/companies/", json=spec, timeout=10)
    resp.raise_for_status()
    data = resp.json()
    return SandboxCompany(id=data["id"], name=data["name"], tokens=data["tokens"])


@pytest.fixture
def company(sandbox_url) -> SandboxCompany:
    """A fresh company for this test."""
    return create_company(sandbox_url)


@pytest.fixture
def make_company(sandbox_url):
    """Factory for further companies with settings: make_company(advanced_accounting=True)."""
    return lambda **spec: create_company(sandbox_url, **spec)


class Api:
    """Tiny requests wrapper bound to a company: api.get(path, token="admin")."""

    def __init__(self, base: str, company: SandboxCompany):
        self.base, self.company = base, company

    def request(self, method: str, path: str, token: str | None = "admin", headers=None,
                **kwargs) -> requests.Response:
        """Send a request with the role's token (or a raw token string, or None)."""
        headers = dict(headers or {})
        if token is not None:
            value = self.company.tokens.get(token, token)
            headers["Authorization"] = f"Token {value}"
        headers.setdefault("Accept", "application/json")
        return requests.request(method, f"{self.base}{path}", headers=headers, timeout=30,
                                **kwargs)

    def get(self, path, **kw):
        """GET."""
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        """POST."""
        return self.request("POST", path, **kw)

    def patch(self, path, **kw):
        """PATCH."""
        return self.request("PATCH", path, **kw)

    def delete(self, path, **kw):
        """DELETE."""
        return self.request("DELETE", path, **kw)


@pytest.fixture
def api(sandbox_url, company) -> Api:
    """Client for the test's company."""
    return Api(sandbox_url, company)


class SandboxLog:
    """Reads the sandbox request log, from the point the fixture was created."""

    def __init__(self, base: str, sent_for: int | None = None):
        self.base, self.sent_for = base, sent_for
        self.mark = self._last_seq()

    def _last_seq(self) -> int:
        items = requests.get(f"{self.base}/_sandbox/requests/", timeout=10).json()["requests"]
        return items[-1]["seq"] if items else 0

    def entries(self, company_id: int | None = None, method: str | None = None,
                path: str | None = None, sent_for: int | None = None) -> list[dict]:
        """Requests recorded since the mark, filtered.

        sent_for (else the log's own) keeps the requests of one company: those the sandbox found
        it for, and those naming it in a company header (a request a fault answered never
        reached the lookup). Other tests' companies are left out, so a read an earlier test left
        running on this worker's sandbox is not counted."""
        sent_for = self.sent_for if sent_for is None else sent_for
        url = f"{self.base}/_sandbox/requests/?since={self.mark}"
        rows = requests.get(url, timeout=10).json()["requests"]
        return [r for r in rows
                if (company_id is None or r["company_id"] == company_id)
                and (sent_for is None or _sent_for(r, sent_for))
                and (method is None or r["method"] == method)
                and (path is None or r["path"].startswith(path))]

    def reset(self) -> None:
        """Move the mark to now."""
        self.mark = self._last_seq()


def _sent_for(entry: dict, company_id: int) -> bool:
    named = {entry["headers"].get(name) for name in COMPANY_HEADERS}
    return entry["company_id"] == company_id or str(company_id) in named


def in_flight_together(entries: list[dict]) -> bool:
    """True when the logged requests were all being served at one common moment (each
    entry's span: its end "at" less its "duration_ms"), i.e. they overlapped."""
    starts = [entry["at"] - entry["duration_ms"] / 1000 for entry in entries]
    return len(entries) > 1 and max(starts) < min(entry["at"] for entry in entries)


@pytest.fixture
def no_gc_pause():
    """No automatic garbage collection while the test runs (one collected beforehand).

    The sandbox, Bookdesk and the test share one process; late in a run a full collection of
    its heap stops every thread for a few hundred milliseconds, and reads sent side by side
    then look sent one after another to in_flight_together."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


@pytest.fixture
def sandbox_log(sandbox_url) -> SandboxLog:
    """The sandbox request log from this test's start."""
    return SandboxLog(sandbox_url)


class Faults:
    """Switches the sandbox's fault injection; cleared when the test ends."""

    def __init__(self, base: str):
        self.base = base

    def add(self, **spec) -> dict:
        """Add a rule: path, method, kind, status, rate, count, latency_ms, retry_after, params."""
        resp = requests.post(f"{self.base}/_sandbox/faults/", json=spec, timeout=10)
        resp.raise_for_status()
        return resp.json()

    def unspent(self) -> list[dict]:
        """The rules with a count that have not fired that many times yet."""
        rules = requests.get(f"{self.base}/_sandbox/faults/", timeout=10).json()["faults"]
        return [rule for rule in rules if rule.get("count") and rule["hits"] < rule["count"]]

    def clear(self) -> None:
        """Switch every fault off."""
        requests.delete(f"{self.base}/_sandbox/faults/", timeout=10).raise_for_status()


@pytest.fixture
def faults(sandbox_url):
    """Fault injection for this test only."""
    board = Faults(sandbox_url)
    yield board
    board.clear()


def in_ci() -> bool:
    """True on CI, where a missing system dependency must fail rather than skip."""
    return bool(os.environ.get("CI"))
