"""Taxes and salaries (spec 2.9, 2.10): the monthly listings and the bulk writes, /2/ only.

`kind` is the record kind's name, "taxes" or "salaries"; both have the same operations.
"""
from __future__ import annotations

from typing import Any


def monthly(client: Any, kind: str, params: dict | None = None) -> dict:
    """The monthly listing with every month's records (fields=taxes / fields=salaries)."""
    return client.get(f"/2/monthly-{kind}/", {**(params or {}), "fields": kind}) or {}


def records(body: dict, kind: str) -> list[dict]:
    """Every record of a monthly listing body, newest month first."""
    return [record for month in body.get(f"monthly_{kind}") or []
            for record in month.get(kind) or []]


def monthly_records(client: Any, kind: str, params: dict | None = None) -> list[dict]:
    """Every record of the monthly listing with these parameters."""
    return records(monthly(client, kind, params), kind)


def create(client: Any, kind: str, items: list[dict]) -> dict:
    """Bulk create: all items in one request, all or nothing."""
    return client.post(f"/2/{kind}/create/", json=items) or {}


def update(client: Any, kind: str, items: list[dict]) -> dict:
    """Bulk update by id: all items in one request."""
    return client.post(f"/2/{kind}/update/", json=items) or {}


def delete(client: Any, kind: str, ids: list[int]) -> None:
    """Bulk delete by id (the upstream answers 204)."""
    client.post(f"/2/{kind}/delete/", json={"ids": ids})
