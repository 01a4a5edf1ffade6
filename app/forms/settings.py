"""The company's settings (GET /2/company-info/), cached like a catalogue.

Forms need them on every page (default currency, advanced accounting, enable_accounting_id,
enable_vat_period); the cache keeps them to zero upstream calls on a warm page. Whoever
changes the settings calls invalidate_settings(company_id).
"""
from __future__ import annotations

import threading
import time

PATH = "/2/company-info/"
_lock = threading.Lock()
_entries: dict[tuple, tuple[float, dict]] = {}
_generations: dict[str, int] = {}


def company_settings(api) -> dict:
    """The company object (spec 2.1), from cache while fresh (TTL of the catalogue cache)."""
    key = api.scope
    with _lock:
        entry = _entries.get(key)
        generation = _generations.get(key[1], 0)
    if entry and entry[0] > time.monotonic():
        return dict(entry[1])
    info = api.get(PATH) or {}
    with _lock:
        if api.catalog_ttl > 0 and _generations.get(key[1], 0) == generation:
            _entries[key] = (time.monotonic() + api.catalog_ttl, dict(info))
    return dict(info)


def invalidate_settings(company_id) -> None:
    """Forget a company's cached settings (after Bookdesk changed them)."""
    company = str(company_id)
    with _lock:
        _generations[company] = _generations.get(company, 0) + 1
        for key in [k for k in _entries if k[1] == company]:
            del _entries[key]


def clear_settings() -> None:
    """Forget every cached company (tests)."""
    with _lock:
        _entries.clear()
