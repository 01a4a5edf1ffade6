"""The company object (spec 2.1, 4.1): read it, change its settings."""
from __future__ import annotations

from typing import Any


def info(client: Any) -> dict:
    """The company object of the client's company (without a company, the token's own)."""
    return client.get("/2/company-info/") or {}


def update(client: Any, company_id: int, body: dict) -> dict:
    """Change some of the company's settings; the stored object."""
    return client.patch(f"/2/company-info/update/{company_id}/", json=body)
