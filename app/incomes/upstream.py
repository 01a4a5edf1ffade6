"""The incomes area's upstream calls, in one place (paths, expansions, parallel reads)."""
from __future__ import annotations

from functools import partial

from app.forms import company_settings
from app.incomes.labels import ACCOUNTING_DOCUMENT, STORNO
from app.upstream import catalog, run_parallel
from app.upstream.responses import find_artifact

LIST = "/1/incomes"
DETAIL = "/1/incomes/{id}/"
CREATE = "/2/incomes/create/"
UPDATE = "/2/incomes/{id}/update/"
ARTIFACTS = "/1/artifacts/income/"
PARTNERS = "/1/partners/"
DETAIL_CATALOGS = ("currencies", "ledger_numbers", "vat_categories")
STORNO_PAGE = 200
FORM_CATALOGS = ("currencies", "ledger_numbers", "vat_categories", "tags", "revenue_types")


def list_page(api, params: dict):
    """One page of incomes plus the currency codes (cached), read side by side."""
    found = run_parallel({"page": partial(api.page, LIST, params, resource="incomes"),
                          "codes": partial(catalog.names, api, "currencies", "code")})
    return found["page"], found["codes"]


def settings_and_catalogs(api, names=DETAIL_CATALOGS) -> tuple[dict, dict]:
    """The company settings and catalogues (both cached), loaded in parallel when cold."""
    found = run_parallel(base_reads(api, names))
    return found["settings"], catalogs_of(found, names)


def base_reads(api, names=DETAIL_CATALOGS) -> dict:
    """Reads of the settings and of each catalogue, side by side (a catalogue per task: tasks
    within a task would run one after another)."""
    return {"settings": partial(company_settings, api),
            **{name: partial(catalog.get, api, name) for name in names}}


def catalogs_of(found: dict, names) -> dict:
    """The catalogues among the results of page_reads or base_reads (late ones left out)."""
    return {name: found[name] for name in names if name in found}


def page_reads(api, income_id: int, names=DETAIL_CATALOGS) -> dict:
    """An income page's independent reads: "record" (settings, income) and each catalogue."""
    return {"record": partial(settings_and_income, api, income_id),
            **{name: partial(catalog.get, api, name) for name in names}}


def settings_and_income(api, income_id: int) -> tuple[dict, dict]:
    """The company settings (cached) and the income detail the settings ask for."""
    settings = company_settings(api)
    return settings, get_income(api, income_id, settings)


def expansions(settings: dict) -> str:
    """fields= for the detail: items and payments always, accounting when the company uses it."""
    parts = ["items", "payment_history"]
    if settings.get("enable_accounting_id") or settings.get("enable_vat_period"):
        parts.append("accounting")
    return ",".join(parts)


def get_income(api, income_id: int, settings: dict) -> dict:
    """The income detail with the expansions the company needs."""
    return api.get(DETAIL.format(id=income_id), {"fields": expansions(settings)})


def find_by_number(api, number: str) -> list[dict]:
    """Accounting documents with exactly this invoice number (a storno's originals)."""
    page = api.page(LIST, {"invoice_number": number, "type": 2, "page_size": 5},
                    resource="incomes")
    return [item for item in page.items if item.get("invoice_number") == number]


def cancelled_numbers(incomes: list[dict]) -> set[str]:
    """The numbers of the cancelled accounting documents among incomes (a storno may name)."""
    wanted = {item.get("invoice_number") for item in incomes
              if item.get("is_cancelled") and item.get("type") == ACCOUNTING_DOCUMENT
              and item.get("invoice_type") != STORNO}
    wanted.discard(None)
    return wanted


def reversed_numbers(api, incomes: list[dict]) -> set[str]:
    """Which of these incomes' numbers a storno document names (read only when one of them is
    a cancelled accounting document, the only kind a storno cancels)."""
    wanted = cancelled_numbers(incomes)
    if not wanted:
        return set()
    # invoice_type narrows the read where the API filters by it; the check below decides.
    stornos = api.iter_all(LIST, {"invoice_type": STORNO, "page_size": STORNO_PAGE},
                           resource="incomes")
    return {item.get("referred_invoice_number") for item in stornos
            if item.get("invoice_type") == STORNO} & wanted


def update(api, income_id: int, body: dict, settings: dict) -> dict:
    """PATCH the income; the answer has the detail's shape."""
    return api.patch(UPDATE.format(id=income_id) + f"?fields={expansions(settings)}", json=body)


def artifact(api, income_id: int) -> dict | None:
    """The artifact record of an income when it has a file (signed, expiring url)."""
    return find_artifact(api.get(ARTIFACTS, {"ids": income_id}), income_id)


def search_partners(api, text: str, size: int = 20) -> list[dict]:
    """Partners whose name or tax number contains text."""
    return api.page(PARTNERS, {"search": text, "page_size": size, "ordering": "name"},
                    resource="partners").items
