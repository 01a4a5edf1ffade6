"""The expenses area's upstream calls, in one place (paths, parallel reads, writes)."""
from __future__ import annotations

from functools import partial

from app.forms import company_settings
from app.upstream import catalog, run_parallel
from app.upstream.responses import find_artifact

LIST = "/2/expenses"
DETAIL = "/2/expenses/{id}/"
CREATE = "/2/expenses/create/"
UPDATE = "/2/expenses/{id}/update/"
ARTIFACTS = "/1/artifacts/expense/"
BULK = "/1/expenses/{action}/"
BULK_ACTIONS = ("approve", "unapprove", "check", "uncheck")
DETAIL_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags")
FORM_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags", "expense_types")
RESOURCE = "expenses"


def list_page(api, params: dict):
    """One page of expenses plus the currency codes (cached), read side by side."""
    found = run_parallel({"page": partial(api.page, LIST, params, resource=RESOURCE),
                          "codes": partial(catalog.names, api, "currencies", "code")})
    return found["page"], found["codes"]


def all_pages(api, params: dict):
    """Every page of the filtered list, following `next` until it is null."""
    return api.iter_pages(LIST, params, resource=RESOURCE)


def settings_and_catalogs(api, names=DETAIL_CATALOGS) -> tuple[dict, dict]:
    """The company settings and catalogues (both cached), loaded in parallel when cold."""
    found = run_parallel({"settings": partial(company_settings, api),
                          "catalogs": partial(catalog.get_many, api, names)})
    return found["settings"], found["catalogs"]


def get_expense(api, expense_id: int) -> dict:
    """The expense detail, with editable_fields."""
    return api.get(DETAIL.format(id=expense_id))


def update(api, expense_id: int, body: dict) -> dict:
    """PATCH the expense; the answer is the updated detail."""
    return api.patch(UPDATE.format(id=expense_id), json=body)


def create(api, filename: str, content: bytes, content_type: str) -> dict:
    """POST one file as a new expense (multipart, field `file`)."""
    return api.post(CREATE, files={"file": (filename, content, content_type)})


def created_since(api, since: str) -> list[dict]:
    """Expenses created at or after since (ISO 8601 with zone), first page only."""
    return api.page(LIST, {"date_field": "created_at", "from_date": since, "page_size": 100},
                    resource=RESOURCE).items


def artifacts(api, ids: list[int]) -> list[dict]:
    """The artifact records (filename, extension) of several expenses in one call."""
    return api.get(ARTIFACTS, {"ids": ",".join(map(str, ids))}) or [] if ids else []


def artifact(api, expense_id: int) -> dict | None:
    """The artifact record of an expense when it has a file (signed, expiring url)."""
    return find_artifact(api.get(ARTIFACTS, {"ids": expense_id}), expense_id)


def bulk_action(api, action: str, ids: list[int]) -> dict:
    """Approve, unapprove, check or uncheck several expenses in one call (live only).

    The answer is {"success_ids", "failed_ids", "errors": [{"id", "errors": [...]}]}.
    """
    if action not in BULK_ACTIONS:
        raise ValueError(action)
    return api.post(BULK.format(action=action), json={"ids": ids})
