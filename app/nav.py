"""Navigation, defined once: `ENTRIES` lists every entry in order; the layout reads `nav_entries()`.

An entry whose endpoint is not registered (an app built without that area) is left out. Entries
sharing a `group` label are shown together in a drop-down menu.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cachetools import LRUCache
from flask import Flask, current_app, g, request, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.routing import BuildError

CACHE = "bookdesk_nav_cache"
CACHE_SIZE = 4096


@dataclass(frozen=True)
class NavEntry:
    """One navigation link: lazy label, endpoint (company-scoped), sort order, optional group."""

    label: Any
    endpoint: str
    group: Any = None

    @property
    def blueprint(self) -> str:
        """The blueprint whose pages this entry marks as current."""
        return self.endpoint.split(".")[0]


_CATALOGUES = _l("Catalogues")
_SETTINGS = _l("Settings")
ENTRIES = (
    NavEntry(_l("Overview"), "dashboard.index"),
    NavEntry(_l("Incomes"), "incomes.index"),
    NavEntry(_l("Review"), "review.index"),
    NavEntry(_l("Expenses"), "expenses.index"),
    NavEntry(_l("Bank"), "bank.index"),
    NavEntry(_l("Partners"), "partners.index"),
    NavEntry(_l("Taxes"), "taxes.index"),
    NavEntry(_l("Salaries"), "salaries.index"),
    NavEntry(_l("VAT summary"), "vat.index"),
    NavEntry(_l("Month-end"), "vat.checklist"),
    NavEntry(_l("Tags"), "tags.index", _CATALOGUES),
    NavEntry(_l("Expense types"), "expense_types.index", _CATALOGUES),
    NavEntry(_l("Revenue types"), "revenue_types.index", _CATALOGUES),
    NavEntry(_l("VAT categories"), "vat_categories.index", _CATALOGUES),
    NavEntry(_l("Currencies"), "currencies.index", _CATALOGUES),
    NavEntry(_l("Documents"), "documents.index", _CATALOGUES),
    NavEntry(_l("Company settings"), "settings.index", _SETTINGS),
    NavEntry(_l("Income policies"), "policy_editor.index", _SETTINGS),
)


def init_app(app: Flask) -> None:
    """Expose the layout helpers to templates."""
    app.jinja_env.globals.update(nav_entries=nav_entries, url_with=url_with)


def nav_entries() -> list[dict]:
    """Entries for the current company: label, url, active, group (grouped ones in order).

    Built once per (company, page, script root) and kept: the labels are lazy, so one list
    serves every language, and a dozen url_for calls per page are not repeated.
    """
    if g.get("company_id") is None:
        return []
    cache = current_app.extensions.setdefault(CACHE, LRUCache(CACHE_SIZE))
    key = (g.company_id, request.endpoint, request.blueprint, request.script_root)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _build_entries()
    return found


def _build_entries() -> list[dict]:
    items = []
    for entry in ENTRIES:
        try:
            url = url_for(entry.endpoint, company_id=g.company_id)
        except BuildError:
            continue
        items.append({"label": entry.label, "url": url, "group": entry.group,
                      "active": _is_active(entry)})
    return _grouped(items)


def _is_active(entry: NavEntry) -> bool:
    """The entry's own page, or any page of a blueprint that has just this one entry."""
    if request.endpoint == entry.endpoint:
        return True
    if request.blueprint != entry.blueprint:
        return False
    return sum(1 for other in ENTRIES if other.blueprint == entry.blueprint) == 1


def _grouped(items: list[dict]) -> list[dict]:
    """Plain entries as they are; a group becomes one entry with `children`, at its first place."""
    result, groups = [], {}
    for item in items:
        if item["group"] is None:
            result.append(item)
            continue
        key = str(item["group"])
        if key not in groups:
            groups[key] = {"label": item["group"], "children": [], "active": False, "group": None}
            result.append(groups[key])
        groups[key]["children"].append(item)
        groups[key]["active"] = groups[key]["active"] or item["active"]
    return result


def url_with(**params) -> str:
    """The current page's URL with some query arguments replaced (None removes one)."""
    args = request.args.to_dict()
    args.update({key: value for key, value in params.items()})
    args = {key: value for key, value in args.items() if value not in (None, "")}
    view_args = dict(request.view_args or {})
    return url_for(request.endpoint, **view_args, **args)


def safe_next(target: str | None) -> str | None:
    """`target` if it is a path on this site (no scheme, host or protocol-relative trick)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if any(ch in target for ch in "\\\r\n\t") or urlsplit(target).netloc:
        return None
    return target
