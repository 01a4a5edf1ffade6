"""Catalogues (currencies, tags, types, VAT, ledger numbers) and documents: the paths, the
short-lived per-token cache (ScopedCache, over cachetools), and the writes, each dropping
the list it touched."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from cachetools import TLRUCache

from .bank import ACCOUNTS
from .errors import ValidationError, error_for
from .parallel import run_parallel
from .responses import id_names

DOCUMENTS = "/2/documents"
DOCUMENT_FILES = "/1/documents/files/"
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
# Tags are written as their live requests carry them, a list under "tags" ({"tags": [{"name"}]});
# a refusal in that envelope is read as the bare list of the entries' problems.
LISTED = frozenset({"tags"})
# What a page shows for an id: a currency by its ISO code, everything else by name.
LABEL_FIELDS = {"currencies": "code"}
SCOPES_KEPT = 512


class ScopedCache:
    """What one token sees of one company, kept a short time: keyed by (base URL, company,
    token fingerprint, name), one load per key at a time, and dropped per company on a write.

    Catalogues, the company object (app/forms/display.py) and the partner scan
    (app/upstream/partners.py) are kept in one of these each.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        # Each entry is (its ttl, its value): one cache holds entries of different lifetimes.
        self._entries: TLRUCache = TLRUCache(SCOPES_KEPT, ttu=lambda _k, entry, now: now + entry[0],
                                             timer=clock)
        self._generations: dict[str, int] = {}
        self._loading: dict[tuple, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, client: Any, name: str, load: Callable[[], Any], ttl: float) -> Any:
        """The value kept under `name` while fresh; else `load()`, kept for `ttl` seconds."""
        key = (*client.scope, name)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                return entry[1]
            lock = self._loading.setdefault(key, threading.Lock())
        with lock:  # a second reader of a cold key waits for the first one's load
            with self._lock:
                entry = self._entries.get(key)
                generation = self._generations.get(key[1], 0)
            if entry is not None:
                return entry[1]
            value = load()
            self._keep(key, generation, ttl, value)
        return value

    def invalidate(self, company_id: int | str, name: str | None = None) -> None:
        """Drop one name (or all) of a company, for every token and base URL."""
        company = str(company_id)
        with self._lock:
            # Bumping the generation stops a load already under way from storing stale data.
            self._generations[company] = self._generations.get(company, 0) + 1
            for key in [k for k in self._entries if k[1] == company and name in (None, k[3])]:
                self._entries.pop(key, None)

    def clear(self) -> None:
        """Forget everything (tests, sign-out of every user)."""
        with self._lock:
            self._entries.clear()
            self._loading.clear()

    def _keep(self, key: tuple, generation: int, ttl: float, value: Any) -> None:
        with self._lock:
            if ttl > 0 and self._generations.get(key[1], 0) == generation:
                self._entries[key] = (ttl, value)
            if len(self._loading) > 2 * SCOPES_KEPT:
                self._loading = {k: v for k, v in self._loading.items() if k in self._entries}


cache = ScopedCache()
invalidate = cache.invalidate
clear = cache.clear


def get(client: Any, name: str, ttl: float | None = None) -> list[Any]:
    """A catalogue's entries (every page), from cache while fresh (the client's catalog_ttl)."""
    if name not in PATHS:
        raise ValueError(f"unknown catalogue {name!r}")
    load = partial(_read, client, name)
    return list(cache.get(client, name, load, client.catalog_ttl if ttl is None else ttl))


def _read(client: Any, name: str) -> tuple[Any, ...]:
    return tuple(client.iter_all(PATHS[name], resource=name))


def get_many(client: Any, names: Iterable[str]) -> dict[str, list[Any]]:
    """Several catalogues at once, missing ones loaded in parallel."""
    return run_parallel({name: partial(get, client, name) for name in names})


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
    """Create entries of a catalogue (create/); the API's answer. One entry sent is answered,
    or refused, as that entry, even in a list (a tag goes as a list of one, its live request)."""
    one = not isinstance(body, list)
    try:
        answer = client.post(PATHS[name] + "create/", json=_listed(name, body))
    except ValidationError as exc:
        raise _unlisted(name, exc, one) from exc
    finally:
        invalidate(client.company_id, name)
    return answer[0] if one and isinstance(answer, list) and answer else answer


def update_many(client: Any, name: str, items: list[dict], method: str = "POST") -> Any:
    """Rename several entries in one request (update/, POST or PATCH); the API's answer."""
    try:
        return client.request(method, PATHS[name] + "update/", json=_listed(name, items))
    except ValidationError as exc:
        raise _unlisted(name, exc) from exc
    finally:
        invalidate(client.company_id, name)


def _listed(name: str, body: Any) -> Any:
    if name not in LISTED:
        return body
    return {name: body if isinstance(body, list) else [body]}


def _unlisted(name: str, exc: ValidationError, one: bool = False) -> ValidationError:
    """A refusal of a listed write as the bare list of its entries' problems, or (one entry
    sent) as that entry's own refusal."""
    body = exc.body
    if name in LISTED and isinstance(body, dict) and isinstance(body.get(name), list):
        body = body[name]
    if one and isinstance(body, list) and len(body) == 1 and isinstance(body[0], dict):
        body = body[0]
    if body is exc.body:
        return exc
    return error_for(400, body, method=exc.method, path=exc.path, request_id=exc.request_id)


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


def document_file(client: Any, document_id: int) -> dict | None:
    """The document's file record ({id, url}: a signed, expiring link), or None."""
    found = client.get(DOCUMENT_FILES, {"ids": document_id})
    return next((item for item in found or [] if isinstance(item, dict)
                 and item.get("id") == document_id), None)


def documents_page(client: Any, params: dict) -> Any:
    """One cursor page of documents (is_attached, page_size, cursor in `params`)."""
    return client.page(DOCUMENTS, params, resource="documents")
