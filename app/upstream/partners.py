"""Partners (spec 2.4, 4.4): the page-number list, one partner, create and update."""
from __future__ import annotations

from typing import Any

from .responses import Page

LIST = "/1/partners/"


def list_page(client: Any, params: dict) -> Page:
    """One page of partners (search, ordering, roles, page and page_size in `params`)."""
    return client.page(LIST, params, resource="partners")


def search(client: Any, text: str, size: int = 20) -> list[dict]:
    """Partners whose name or tax number contains text (the forms' partner picker)."""
    return list_page(client, {"search": text, "page_size": size, "ordering": "name"}).items


def recent(client: Any, size: int = 50) -> Page:
    """The newest partners first (created_at descending)."""
    return list_page(client, {"ordering": "-created_at", "page_size": size})


def get(client: Any, partner_id: int) -> dict:
    """One partner (NotFound when it is not this company's)."""
    return client.get(f"{LIST}{partner_id}/")


def create(client: Any, body: dict) -> dict:
    """Create a partner; the stored record (tax number normalised by the API)."""
    return client.post("/2/partners/create/", json=body)


def update(client: Any, partner_id: int, body: dict) -> dict:
    """Update some fields of a partner; the stored record."""
    return client.patch(f"/2/partners/{partner_id}/update/", json=body)
