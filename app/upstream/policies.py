"""The company's income policies upstream: the stored configuration, saving it, and the incomes
the editor's preview runs it over: the company object's income_policies key and the incomes
list, through their resource modules."""

from __future__ import annotations

from datetime import date
from typing import Any

from . import company, incomes

PAGE_SIZE = 200


def get_config(client: Any):
    """The company's stored income_policies (None when there are none)."""
    return company.info(client).get("income_policies")


def save_config(client: Any, company_id: int, config):
    """PATCH the whole configuration (None deletes it); returns what the upstream stored."""
    body = company.update(client, company_id, {"income_policies": config})
    return (body or {}).get("income_policies", config)


def incomes_since(client: Any, since: date, limit: int) -> tuple[list, bool]:
    """Incomes issued since the date, newest first, a page of 200 at a time; (at most limit
    incomes, whether more were left)."""
    params = {"date_field": "issued_at", "from_date": since.isoformat(),
              "page_size": PAGE_SIZE, "ordering": "-issued_at"}
    found = []
    for page in incomes.iter_pages(client, params):
        found.extend(page.items)
        if len(found) >= limit:
            return found[:limit], True
    return found, False
