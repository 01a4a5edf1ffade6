"""The company's income policies upstream: the stored configuration, saving it, and the incomes
the editor's preview runs it over (spec 2.1 company-info, 3.1 incomes)."""

from __future__ import annotations

from datetime import date
from typing import Any

COMPANY_INFO = "/2/company-info/"
UPDATE = "/2/company-info/update/{company_id}/"
INCOMES = "/1/incomes"
PAGE_SIZE = 200


def get_config(client: Any):
    """The company's stored income_policies (None when there are none)."""
    return (client.get(COMPANY_INFO) or {}).get("income_policies")


def save_config(client: Any, company_id: int, config):
    """PATCH the whole configuration (None deletes it); returns what the upstream stored."""
    body = client.patch(UPDATE.format(company_id=company_id), json={"income_policies": config})
    return (body or {}).get("income_policies", config)


def incomes_since(client: Any, since: date, limit: int) -> tuple[list, bool]:
    """Incomes issued since the date, newest first, a page of 200 at a time; (at most limit
    incomes, whether more were left)."""
    params = {"date_field": "issued_at", "from_date": since.isoformat(),
              "page_size": PAGE_SIZE, "ordering": "-issued_at"}
    incomes = []
    for page in client.iter_pages(INCOMES, params, resource="incomes"):
        incomes.extend(page.items)
        if len(incomes) >= limit:
            return incomes[:limit], True
    return incomes, False
