"""What the partner pages do beyond the calls (app/upstream/partners.py): the list's query,
the partner a refused write collides with, the fields a limited partner refused, and finding
what a create with a lost answer stored."""
from __future__ import annotations

from dataclasses import replace

from app.i18n import collated, search_text
from app.upstream import NotFound, Page, ValidationError
from app.upstream import partners as partners_api

PAGE_SIZE = 25
ORDERINGS = ("name", "-name", "created_at", "-created_at")
ROLES = {"customer": {"is_customer": True}, "vendor": {"is_vendor": True}}
# Where the API names the partner a new one collides with (spec 4.4 rule 2).
EXISTING_KEYS = ("existing_partner_id", "existing_id", "partner_id")


def list_page(api, query: str, role: str, ordering: str, page: int) -> Page:
    """One page of partners matching a name / tax number search and a role."""
    ordering = ordering if ordering in ORDERINGS else "name"
    params = {"search": search_text(query) or None, "ordering": ordering,
              "page": page if page > 1 else None, "page_size": PAGE_SIZE, **ROLES.get(role, {})}
    found = partners_api.list_page(api, params)
    if ordering.endswith("name"):  # the page in Hungarian (ICU) order, not the API's byte order
        items = collated(found.items, "name")
        return replace(found, items=items[::-1] if ordering.startswith("-") else items)
    return found


def existing_id(error: ValidationError) -> int | None:
    """The id of the partner a refused create or update collides with, if the API named one."""
    for key in EXISTING_KEYS:
        value = error.extra.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.isdigit():
            return int(value)
    return None


def existing(api, partner_id: int) -> dict:
    """The colliding partner to show (just its id when it cannot be read)."""
    try:
        return partners_api.get(api, partner_id)
    except NotFound:
        return {"id": partner_id}


def find_created(api, values: dict) -> int | None:
    """The partner a create with these values stored, by the API's own collision key: the
    tax number, or (without one) the name among partners without a tax number."""
    tax_number = values.get("tax_number")
    params = {"tax_number": tax_number} if tax_number else {"name": values.get("name")}
    page = partners_api.list_page(api, {**params, "page_size": PAGE_SIZE})
    name = (values.get("name") or "").casefold()
    for item in page.items:
        if tax_number or ((item.get("name") or "").casefold() == name
                          and not item.get("tax_number")):
            return item["id"]
    return None


def refused_fields(error: ValidationError) -> list[str]:
    """The fields a limited partner refused (spec 4.4 rule 3), as the API named them."""
    named = error.extra.get("offending_fields") or error.extra.get("fields") or []
    return [name for name in named if isinstance(name, str)]
