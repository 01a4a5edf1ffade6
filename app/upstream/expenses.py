"""The expenses resource: every /1/expenses and /2/expenses path and its artifacts. Plain
functions taking the client first."""
from __future__ import annotations

from app.upstream.errors import Unavailable
from app.upstream.responses import find_artifact, within_filter

LIST = "/2/expenses"
DETAIL = "/2/expenses/{id}/"
CREATE = "/2/expenses/create/"
UPDATE = "/2/expenses/{id}/update/"
ARTIFACTS = "/1/artifacts/expense/"
ARTIFACT_SEARCH = "/2/expenses/artifact-search/"
BULK = "/1/expenses/{action}/"
BULK_ACTIONS = ("approve", "unapprove", "check", "uncheck")
RESOURCE = "expenses"
UNPROCESSED = "unprocessed"


def list_page(client, params: dict):
    """One page of expenses (a Page, cursor-paged) for these GET /2/expenses parameters, its
    rows held to the filters they show (FilterIgnored when the service passed one over)."""
    return within_filter(client.page(LIST, params, resource=RESOURCE), params)


def iter_pages(client, params: dict):
    """Every page of the filtered list, following `next` until it is null, held as
    list_page holds one."""
    return (within_filter(page, params)
            for page in client.iter_pages(LIST, params, resource=RESOURCE))


def created_since(client, since: str) -> list[dict]:
    """Expenses created at or after since (ISO 8601 with zone), first page only."""
    return list_page(client, {"date_field": "created_at", "from_date": since,
                              "page_size": 100}).items


def get(client, expense_id: int, fields: str | None = None) -> dict:
    """The expense detail, with editable_fields; fields= names expansions (payment_history)."""
    return client.get(DETAIL.format(id=expense_id), {"fields": fields} if fields else None)


def update(client, expense_id: int, body: dict) -> dict:
    """PATCH the expense; the answer is the updated detail."""
    return client.patch(UPDATE.format(id=expense_id), json=body)


def create(client, filename: str, content: bytes, content_type: str) -> dict:
    """POST one file as a new expense (multipart, field `file`)."""
    return client.post(CREATE, files={"file": (filename, content, content_type)})


def same_file(client, filename: str, size: int) -> list[dict]:
    """The company's expenses whose file has this name and size ({expense_id, created_at}).
    The live description leaves the answer's shape open: a list (or a `results` list) is
    read, anything else is Unavailable, as an answer that says nothing."""
    found = client.post(ARTIFACT_SEARCH, json={"name": filename, "size": size,
                                               "company_ids": [client.company_id]})
    items = found.get("results") if isinstance(found, dict) else found
    if not isinstance(items, list):
        raise Unavailable("artifact-search answered in an unknown shape", path=ARTIFACT_SEARCH)
    return [item for item in items if isinstance(item, dict)
            and type(item.get("expense_id")) is int]


def artifacts(client, ids: list[int]) -> list[dict]:
    """The artifact records (filename, extension) of several expenses in one call."""
    return client.get(ARTIFACTS, {"ids": ",".join(map(str, ids))}) or [] if ids else []


def artifact(client, expense_id: int) -> dict | None:
    """The artifact record of an expense when it has a file (signed, expiring url)."""
    return find_artifact(client.get(ARTIFACTS, {"ids": expense_id}), expense_id)


def bulk_action(client, action: str, ids: list[int]) -> dict:
    """Approve, unapprove, check or uncheck several expenses in one call (live only).

    The answer is {"success_ids", "failed_ids", "errors": [{"id", "errors": [...]}]}.
    """
    if action not in BULK_ACTIONS:
        raise ValueError(action)
    return client.post(BULK.format(action=action), json={"ids": ids})


def iter_all(client, params: dict):
    """Every expense the filter finds, page after page."""
    return (item for page in iter_pages(client, params) for item in page.items)


def unprocessed(client, page_size: int = 100) -> list[dict]:
    """Every expense still to process: not processed and not excluded from accounting (its
    accounting_status "unprocessed"; is_processed=false alone also finds excluded ones)."""
    found = iter_all(client, {"is_processed": "false", "page_size": page_size})
    return [expense for expense in found if expense.get("accounting_status") == UNPROCESSED]


def fulfilled_between(client, start, end, page_size: int = 100, **flags):
    """Every expense whose fulfilment day is from start to end (inclusive), page after page;
    flags are further list filters (has_vat_period=False...)."""
    params = {"date_field": "fulfilled_at", "from_date": start.isoformat(),
              "to_date": end.isoformat(), "page_size": page_size}
    params.update({key: str(value).lower() for key, value in flags.items()})
    return iter_all(client, params)
