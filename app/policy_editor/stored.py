"""The upstream side: the stored configuration, saving it, and the catalogues it names."""
from __future__ import annotations

from functools import partial

from app.policies import LEDGER_NUMBERS, REVENUE_TYPES, TAGS, names_in_config
from app.policy_editor.refs import Catalogs
from app.upstream import NotFound, catalog, run_parallel
from app.upstream.responses import detail_text

COMPANY_INFO = "/2/company-info/"
UPDATE = "/2/company-info/update/{company_id}/"
EDITOR_CATALOGS = (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)
# Records the engine may create when it applies policies (DESIGN.md, upstream-notes).
CREATED_BY_ENGINE = (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)


def load_stored(api):
    """The company's stored income_policies (None when there are none)."""
    return (api.get(COMPANY_INFO) or {}).get("income_policies")


def save_stored(api, company_id: int, config):
    """PATCH the whole configuration (None deletes it); returns what the upstream stored."""
    body = api.patch(UPDATE.format(company_id=company_id), json={"income_policies": config})
    return (body or {}).get("income_policies", config)


def forget_created_records(company_id: int, config) -> None:
    """Drop cached catalogues the engine may add to once these policies run."""
    named = names_in_config(config) if isinstance(config, dict) else {}
    for name in CREATED_BY_ENGINE:
        if name in named or config is None:
            catalog.invalidate(company_id, name)


def _catalog_or_empty(api, name: str) -> list:
    """A catalogue's records; [] where the upstream lacks it (ledger numbers are beyond spec)."""
    try:
        return catalog.get(api, name)
    except NotFound:
        return []


def load_editor_data(api, *, currencies: bool = False) -> tuple:
    """The stored configuration and the catalogues, read side by side."""
    return editor_data(run_parallel(editor_tasks(api, currencies=currencies)))


def editor_tasks(api, *, currencies: bool = False) -> dict:
    """The editor's reads as run_parallel tasks, so a page can add reads of its own."""
    names = EDITOR_CATALOGS + (("currencies",) if currencies else ())
    tasks = {name: partial(_catalog_or_empty, api, name) for name in names}
    tasks["stored"] = partial(load_stored, api)
    return tasks


def editor_data(found: dict) -> tuple:
    """(stored configuration, Catalogs) from the results of editor_tasks."""
    found = dict(found)
    return found.pop("stored"), Catalogs.from_lists(found)


def refusal_text(exc) -> str:
    """The upstream's own words for a refusal (its "detail"), or an empty string."""
    return detail_text(getattr(exc, "body", None))[:300]
