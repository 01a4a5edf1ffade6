"""What the partner pages do beyond the calls (app/upstream/partners.py): the list's query
(a search or a name ordering reads the company's partners, matches them case and accents
aside and orders them by collation), the partner a refused write collides with, the fields a
limited partner refused, finding what a create with a lost answer stored, and the reads of the
partner card (open documents, the documents list, the statement)."""
from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import partial

from app.exports import EXPORT_PAGE_SIZE
from app.i18n import search_text
from app.upstream import NotFound, Page, ValidationError, catalog
from app.upstream import expenses as expenses_api
from app.upstream import incomes as incomes_api
from app.upstream import parallel as page_budget
from app.upstream import partners as partners_api
from app.upstream.incomes import STORNO_INVOICE_TYPE
from app.upstream.responses import page_of, ref

PAGE_SIZE = 25
ORDERINGS = ("name", "-name", "created_at", "-created_at")
ROLES = {"customer": {"is_customer": True}, "vendor": {"is_vendor": True}}
# Where the API names the partner a new one collides with (spec 4.4 rule 2).
EXISTING_KEYS = ("existing_partner_id", "existing_id", "partner_id")


def list_page(api, query: str, role: str, ordering: str, page: int) -> Page:
    """One page of partners matching a name / tax number search (case and accents aside)
    and a role; without a search (or past the scan limit) the API's own page."""
    ordering = _ordering(ordering)
    found = partners_api.find(api, query, ROLES.get(role, {}), ordering)
    if found is not None:
        return page_of(found, page, PAGE_SIZE)
    return _api_page(api, query, role, ordering, page)


def _ordering(raw: str) -> str:
    return raw if raw in ORDERINGS else "name"


def _api_page(api, query: str, role: str, ordering: str, page: int) -> Page:
    """The API's page (its search tells accents apart: noted when a search was typed). Past
    the scan limit its name order is its own, kept whole rather than re-sorted page by page."""
    text = search_text(query)
    params = {"search": text or None, "ordering": ordering,
              "page": page if page > 1 else None, "page_size": PAGE_SIZE, **ROLES.get(role, {})}
    found = partners_api.list_page(api, params)
    if text:
        found = replace(found, lookups={**found.lookups,
                                        "accents_count": partners_api.PARTNER_SCAN_LIMIT})
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


# The partner card: open amounts, ageing, documents and the statement.
# /2/expenses has no partner-id filter: its partner-name search narrows the list, then the
# records of this very partner are kept (a namesake partner's are dropped).
OPEN_INCOME_STATUSES = (1, 3)
CARD_PAGE_SIZE = 20
INCOME_ORDER = "-issued_at"  # the card's and the statement's: newest first
OPEN_PAGE_SIZE = 100


def expense_params(partner: dict) -> dict:
    """The /2/expenses parameters that narrow the list to this partner's name."""
    return {"search": partner.get("name") or "", "search_fields": "partner_name"}


def of_partner(items: list[dict], partner_id: int) -> list[dict]:
    """The expenses of this partner among the records of a name search."""
    return [item for item in items if ref(item.get("partner")) == partner_id]


def open_incomes(api, partner_id: int, status: int) -> list[dict]:
    """The partner's incomes with this paid status (unpaid or partly paid), cancelled ones and
    stornos left out (a storno stays unpaid at its negative gross; what it reverses is
    cancelled, so the pair owes nothing)."""
    params = {"partner": partner_id, "paid_status": status, "page_size": OPEN_PAGE_SIZE}
    return [item for item in incomes_api.iter_all(api, params)
            if not item.get("is_cancelled") and item.get("invoice_type") != STORNO_INVOICE_TYPE]


def open_expenses(api, partner: dict) -> list[dict]:
    """The partner's expenses not fully paid, every page of the narrowed list."""
    params = {**expense_params(partner), "is_paid": "false", "page_size": OPEN_PAGE_SIZE}
    return [item for page in expenses_api.iter_pages(api, params)
            for item in of_partner(page.items, partner["id"])]


def income_page(api, partner_id: int, number: int) -> Page:
    """One page of the partner's incomes, newest first."""
    return incomes_api.list_page(api, {"partner": partner_id, "ordering": INCOME_ORDER,
                                       "page": number if number > 1 else None,
                                       "page_size": CARD_PAGE_SIZE})


def expense_page(api, partner: dict, cursor: str | None) -> Page:
    """One page of the narrowed expense list, with only this partner's records kept."""
    page = expenses_api.list_page(api, {**expense_params(partner), "cursor": cursor or None,
                                        "page_size": CARD_PAGE_SIZE})
    return replace(page, items=of_partner(page.items, partner["id"]))


def card(api, partner_id: int, number: int, cursor: str | None) -> dict:
    """The partner and everything its card shows, read side by side within the page's time
    budget: the reads by partner id start with the partner's own read, the expense reads
    (by the partner's name) take it from that one read."""
    partner = page_budget.once(partial(partners_api.get, api, partner_id))
    found = page_budget.read({
        "partner": partner,
        **{f"incomes_{s}": partial(open_incomes, api, partner_id, s)
           for s in OPEN_INCOME_STATUSES},
        "expenses": lambda: open_expenses(api, partner()),
        "income_page": partial(income_page, api, partner_id, number),
        "expense_page": lambda: expense_page(api, partner(), cursor),
        "codes": partial(catalog.names, api, "currencies", "code")})
    found["incomes"] = [i for s in OPEN_INCOME_STATUSES for i in found.pop(f"incomes_{s}")]
    return found


def statement_pages(api, partner: dict, today: date):
    """Every document of the partner, incomes then expenses, in the card's order, page by page
    (each record marked with its kind, each page with the day past due is counted from; no
    page's count stands for the whole, which the income list's alone would not)."""
    incomes = incomes_api.iter_pages(api, {"partner": partner["id"], "ordering": INCOME_ORDER,
                                           "page_size": EXPORT_PAGE_SIZE})
    expenses = expenses_api.iter_pages(api, {**expense_params(partner),
                                             "page_size": EXPORT_PAGE_SIZE})
    for kind, pages in (("income", incomes), ("expense", expenses)):
        for page in pages:
            items = page.items if kind == "income" else of_partner(page.items, partner["id"])
            yield replace(page, items=[{**item, "kind": kind} for item in items],
                          lookups={**page.lookups, "today": today}, count=None)


def list_pages(api, query: str, role: str, ordering: str):
    """Every page of the partner list as the list shows it (same search, role, ordering, page
    size and collation), one after another: the export of the list."""
    ordering = _ordering(ordering)
    found = partners_api.find(api, query, ROLES.get(role, {}), ordering)
    if found is not None:
        pages = max(1, -(-len(found) // PAGE_SIZE))
        yield from (page_of(found, number, PAGE_SIZE) for number in range(1, pages + 1))
        return
    number = 1
    while True:
        page = _api_page(api, query, role, ordering, number)
        yield page
        if not page.next or not page.items:
            return
        number += 1
