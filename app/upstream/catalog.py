"""Catalogues (currencies, tags, types, VAT, ledger numbers) and documents: the paths, a
short-lived cache of the small lists, and the writes, each dropping the list it touched."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from .bank import ACCOUNTS
from .parallel import run_parallel
from .responses import id_names

DOCUMENTS = "/2/documents"
PATHS = {
    "currencies": "/2/currencies/",
    "tags": "/2/tags/",
    "expense_types": "/2/expense-types/",
    "revenue_types": "/2/revenue-types/",
    "vat_categories": "/2/accounting/vat-categories/",
    "ledger_numbers": "/2/accounting/ledger-numbers/",
    # The company's bank accounts: what a record's "paid through" chooses from.
    "accounts": ACCOUNTS,
}
# What a page shows for an id: a currency by its ISO code, everything else by name.
LABEL_FIELDS = {"currencies": "code"}
PRUNE_AT = 512


@dataclass(frozen=True)
class _Entry:
    expires: float
    items: tuple[Any, ...]


class CatalogCache:
    """Thread-safe TTL cache keyed by (base URL, company, token fingerprint, catalogue)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: dict[tuple, _Entry] = {}
        self._generations: dict[str, int] = {}
        self._loading: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, client: Any, name: str, ttl: float | None = None) -> list[Any]:
        """The catalogue's entries, from cache while fresh, else loaded (all pages)."""
        if name not in PATHS:
            raise ValueError(f"unknown catalogue {name!r}")
        key = (*client.scope, name)
        cached = self._fresh(key)
        if cached is not None:
            return list(cached)
        with self._load_lock(key):
            cached = self._fresh(key)
            if cached is not None:
                return list(cached)
            return list(self._load(client, key, client.catalog_ttl if ttl is None else ttl))

    def get_many(self, client: Any, names: Iterable[str]) -> dict[str, list[Any]]:
        """Several catalogues at once, missing ones loaded in parallel."""
        return run_parallel({name: partial(self.get, client, name) for name in names})

    def invalidate(self, company_id: int | str, name: str | None = None) -> None:
        """Drop one catalogue (or all) of a company, for every token and base URL."""
        company = str(company_id)
        with self._lock:
            # Bumping the generation stops a load already under way from storing stale data.
            self._generations[company] = self._generations.get(company, 0) + 1
            for key in [k for k in self._entries if k[1] == company and name in (None, k[3])]:
                del self._entries[key]

    def clear(self) -> None:
        """Forget everything (tests, sign-out of every user)."""
        with self._lock:
            self._entries.clear()
            self._loading.clear()

    def _fresh(self, key: tuple) -> tuple[Any, ...] | None:
        with self._lock:
            entry = self._entries.get(key)
            return entry.items if entry and entry.expires > self._clock() else None

    def _load_lock(self, key: tuple) -> threading.Lock:
        with self._lock:
            return self._loading.setdefault(key, threading.Lock())

    def _load(self, client: Any, key: tuple, ttl: float) -> tuple[Any, ...]:
        with self._lock:
            generation = self._generations.get(key[1], 0)
        items = tuple(client.iter_all(PATHS[key[3]], resource=key[3]))
        with self._lock:
            if ttl > 0 and self._generations.get(key[1], 0) == generation:
                self._prune()
                self._entries[key] = _Entry(self._clock() + ttl, items)
        return items

    def _prune(self) -> None:
        if len(self._entries) < PRUNE_AT:
            return
        now = self._clock()
        for key in [k for k, e in self._entries.items() if e.expires <= now]:
            del self._entries[key]
            self._loading.pop(key, None)


cache = CatalogCache()
get = cache.get
get_many = cache.get_many
invalidate = cache.invalidate
clear = cache.clear


def names(client: Any, name: str, key: str | None = None) -> dict[Any, str]:
    """``{id: label}`` for a catalogue (currencies: code; ``key`` picks another field)."""
    return id_names(get(client, name), key or LABEL_FIELDS.get(name))


def page_with_codes(read: Callable, client: Any, params: dict) -> tuple[Any, dict[Any, str]]:
    """(a list page, the currency codes): `read(client, params)` and the cached codes, side
    by side."""
    found = run_parallel({"page": partial(read, client, params),
                          "codes": partial(names, client, "currencies", "code")})
    return found["page"], found["codes"]


def search(client: Any, name: str, params: dict) -> list[Any]:
    """A catalogue filtered by the API (every page), bypassing the cache."""
    return list(client.iter_all(PATHS[name], params, resource=name))


def create(client: Any, name: str, body: Any) -> Any:
    """Create entries of a catalogue (create/); the API's answer."""
    try:
        return client.post(PATHS[name] + "create/", json=body)
    finally:
        invalidate(client.company_id, name)


def update_many(client: Any, name: str, items: list[dict], method: str = "POST") -> Any:
    """Rename several entries in one request (update/, POST or PATCH); the API's answer."""
    try:
        return client.request(method, PATHS[name] + "update/", json=items)
    finally:
        invalidate(client.company_id, name)


def update_one(client: Any, name: str, entry_id: int, body: dict) -> Any:
    """Update one entry (update/<id>/); the stored entry."""
    try:
        return client.post(f"{PATHS[name]}update/{entry_id}/", json=body)
    finally:
        invalidate(client.company_id, name)


def delete_many(client: Any, name: str, ids: list[int]) -> Any:
    """Delete several entries (delete/); the API's report of what went and what stayed."""
    try:
        return client.post(PATHS[name] + "delete/", json={"ids": ids})
    finally:
        invalidate(client.company_id, name)


def documents_page(client: Any, params: dict) -> Any:
    """One cursor page of documents (is_attached, page_size, cursor in `params`)."""
    return client.page(DOCUMENTS, params, resource="documents")
