"""Helpers for the taxes and salaries tests: records through the API, grids as a browser sends."""
from __future__ import annotations

import re

import requests

from tests.app.conftest import csrf_token

ACCOUNT = "11784009-15490012"
TAX_NUMBER = "8412345673"
_FORM_KEY = re.compile(r'name="form_key" value="([^"]+)"')


def create(api, *items, kind: str = "taxes") -> list[int]:
    """Create records through the public API; their ids."""
    response = api.post(f"/2/{kind}/create/", json=list(items))
    assert response.status_code == 201, response.text
    return record_ids(response.json(), kind)


def sync(api, *items, kind: str = "taxes", source: str = "nav") -> list[int]:
    """Records as an integration delivers them (source label, only tags editable)."""
    response = requests.post(f"{api.base}/_sandbox/{kind}/sync/", timeout=10, json={
        "company_id": api.company.id, "source": source, "items": list(items)})
    assert response.status_code == 201, response.text
    return record_ids(response.json(), kind)


def record_ids(body: dict, kind: str = "taxes") -> list[int]:
    """The record ids of a monthly listing body."""
    return [r["id"] for m in body[f"monthly_{kind}"] for r in m[kind]]


def months(api, kind: str = "taxes") -> dict[str, dict]:
    """The monthly listing with detail, by month (YYYY-MM)."""
    body = api.get(f"/2/monthly-{kind}/", params={"fields": kind}).json()
    return {m["month"][:7]: m for m in body[f"monthly_{kind}"]}


def records(api, kind: str = "taxes") -> dict[int, dict]:
    """Every record by id."""
    return {r["id"]: r for m in months(api, kind).values() for r in m[kind]}


def tag_ids(api) -> list[int]:
    """The company's tag ids."""
    return [tag["id"] for tag in api.get("/2/tags/").json()]


def grid(client, path: str) -> dict:
    """The hidden fields of a grid page (csrf token, one-time key) as the browser sends them."""
    html = client.get(path).get_data(as_text=True)
    data = {"csrf_token": csrf_token(html)}
    key = _FORM_KEY.search(html)
    if key:
        data["form_key"] = key.group(1)
    return data


def rows(*items: dict, prefix: str = "rows-{}-") -> dict:
    """Grid inputs for the given rows: rows({"amount": "100"}, ...) -> {"rows-0-amount": ...}."""
    data = {}
    for index, item in enumerate(items):
        for name, value in item.items():
            data[prefix.format(index) + name] = value
    return data


def writes(sandbox_log, company_id: int, path: str) -> list[dict]:
    """POSTs the company sent to an upstream path."""
    return sandbox_log.entries(company_id=company_id, method="POST", path=path)


def upstream_paths(sandbox_log, company_id: int) -> set[str]:
    """Every upstream path the company's requests used."""
    return {entry["path"] for entry in sandbox_log.entries(company_id=company_id)}


def cell(html: str, row_key: str, name: str, prefix: str = "rows-{}-") -> str:
    """The markup of one grid cell (input and its messages)."""
    marker = f'name="{prefix.format(row_key)}{name}"'
    start = html.index(marker)
    start = html.rindex("<td", 0, start)
    return html[start:html.index("</td>", start)]
