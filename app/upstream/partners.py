"""Partners (spec 2.4, 4.4): the page-number list, one partner, create and update, and the
search that ignores case and accents: it reads every partner of the company into a short-lived
per-token copy (a create or update through Bookdesk drops the company's copies) and matches
and orders them here, up to PARTNER_SCAN_LIMIT partners."""
from __future__ import annotations

from functools import partial
from typing import Any

from app.i18n import collate_key, fold, search_text
from app.identifiers import compact

from .catalog import ScopedCache
from .parallel import read_every
from .responses import Page

LIST = "/1/partners/"
# Above this many partners the company is not read through: the search goes to the API.
PARTNER_SCAN_LIMIT = 3000
# The largest page the API serves (the sandbox's bound); a smaller real one is followed too.
SCAN_PAGE_SIZE = 1000
SCAN_TTL = 60
_scans = ScopedCache()


def list_page(client: Any, params: dict) -> Page:
    """One page of partners (search, ordering, roles, page and page_size in `params`)."""
    return client.page(LIST, params, resource="partners")


def search(client: Any, text: str, size: int = 20) -> list[dict]:
    """The first partners by name whose name or tax number contains text, case and accents
    aside (the forms' partner picker); the API's own search past PARTNER_SCAN_LIMIT."""
    found = find(client, text, {}, "name")
    if found is not None:
        return found[:size]
    return list_page(client, {"search": text, "page_size": size, "ordering": "name"}).items


def recent(client: Any, size: int = 50) -> Page:
    """The newest partners first (created_at descending)."""
    return list_page(client, {"ordering": "-created_at", "page_size": size})


def get(client: Any, partner_id: int) -> dict:
    """One partner (NotFound when it is not this company's)."""
    return client.get(f"{LIST}{partner_id}/")


def create(client: Any, body: dict) -> dict:
    """Create a partner; the stored record (tax number normalised by the API)."""
    try:
        return client.post("/2/partners/create/", json=body)
    finally:
        forget(client.company_id)


def update(client: Any, partner_id: int, body: dict) -> dict:
    """Update some fields of a partner; the stored record."""
    try:
        return client.patch(f"/2/partners/{partner_id}/update/", json=body)
    finally:
        forget(client.company_id)


def everyone(client: Any) -> list[dict] | None:
    """Every partner of the company (cached briefly per token); None past PARTNER_SCAN_LIMIT."""
    read = partial(read_every, client, list_page, {}, PARTNER_SCAN_LIMIT, SCAN_PAGE_SIZE)
    return _scans.get(client, "partners", read, SCAN_TTL)


def find(client: Any, query: str, flags: dict, ordering: str) -> list[dict] | None:
    """Every partner matching the query and the role flags, in the list's ordering. None when
    the API's own pages serve: no search and an ordering by date, or more partners than can be
    read through. Names are ordered here even without a search: the API orders them byte by
    byte (Ő after Z), and a page sorted on its own would break the order between pages."""
    if not search_text(query) and not ordering.endswith("name"):
        return None
    found = everyone(client)
    if found is None:
        return None
    needle, digits = fold(search_text(query)), compact(query)
    kept = [p for p in found if _matches(p, needle, digits)
            and all(p.get(k) is v for k, v in flags.items())]
    return ordered(kept, ordering)


def _matches(partner: dict, needle: str, digits: str) -> bool:
    """Whether the folded name or tax number holds the folded needle, or the tax number
    without its separators holds the typed digits (the API compares tax numbers so too)."""
    tax_number = partner.get("tax_number") or ""
    return (needle in fold(partner.get("name")) or needle in fold(tax_number)
            or bool(digits) and digits in compact(tax_number))


def ordered(items: list[dict], ordering: str) -> list[dict]:
    """The API's orderings (name, created_at, with "-") and its ties by name then id; names
    by ICU collation, as the list shows them."""
    by_name = sorted(items, key=lambda p: (collate_key(p.get("name")), p.get("id") or 0))
    if ordering == "-name":
        return by_name[::-1]
    if ordering.endswith("created_at"):  # a stable sort keeps the name order among ties
        return sorted(by_name, key=lambda p: p.get("created_at") or "",
                      reverse=ordering.startswith("-"))
    return by_name


def forget(company_id: Any) -> None:
    """Drop the company's partner copies, for every token (after a write through Bookdesk)."""
    _scans.invalidate(company_id)
