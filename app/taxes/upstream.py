"""The taxes area's upstream calls: /2/ monthly listings and bulk writes, never /1/."""
from __future__ import annotations

from functools import partial

from app.forms import company_settings
from app.taxes.kinds import Kind
from app.upstream import catalog, run_parallel


def listing(api, kind: Kind, params: dict | None = None) -> dict:
    """The monthly listing with every month's records (fields=taxes / fields=salaries)."""
    return api.get(kind.listing, {**(params or {}), "fields": kind.name}) or {}


def currency_code(api) -> str | None:
    """The company's currency (taxes and salaries are in it), from the cached settings."""
    return company_settings(api).get("default_currency_name")


def tag_catalog(api) -> list[dict]:
    """The company's tags (cached catalogue)."""
    return catalog.get(api, "tags")


def read(api, kind: Kind, params: dict | None = None, *, tags: bool = False) -> dict:
    """Listing, currency and (optionally) the tag catalogue, read side by side."""
    tasks = {"listing": partial(listing, api, kind, params),
             "currency": partial(currency_code, api)}
    if tags:
        tasks["tags"] = partial(tag_catalog, api)
    return run_parallel(tasks)


def records(body: dict, kind: Kind) -> list[dict]:
    """Every record of a listing body, newest month first."""
    return [record for month in body.get(kind.monthly_key) or []
            for record in month.get(kind.name) or []]


def create(api, kind: Kind, items: list[dict]) -> dict:
    """Bulk create: all rows in one request, all or nothing."""
    return api.post(kind.write_path("create"), json=items) or {}


def update(api, kind: Kind, items: list[dict]) -> dict:
    """Bulk update by id: all rows in one request."""
    return api.post(kind.write_path("update"), json=items) or {}


def delete(api, kind: Kind, ids: list[int]) -> None:
    """Bulk delete by id (the upstream answers 204)."""
    api.post(kind.write_path("delete"), json={"ids": ids})


def form_data(api) -> dict:
    """The tag catalogue and the company currency for a grid, read side by side."""
    return run_parallel({"tags": partial(tag_catalog, api),
                         "currency": partial(currency_code, api)})
