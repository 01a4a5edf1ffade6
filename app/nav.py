"""Navigation registry: an area appears in the layout only once its blueprint is registered.

Usage in an area module::

    from app.auth import company_blueprint
    from app.nav import register_area

    bp = company_blueprint("incomes", __name__, url_prefix="/incomes")

    def init_app(app):
        register_area(app, bp, _l("Incomes"), "incomes.index", order=20)

`register_area` registers the blueprint and adds its navigation entry. Extra entries for the
same area (e.g. the catalogue pages) go through `add_nav_entry`; entries sharing a `group`
label are shown together in a drop-down menu. The layout reads `nav_entries()`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, request, url_for
from werkzeug.routing import BuildError

EXTENSION = "bookdesk_nav"
CACHE = "bookdesk_nav_cache"
CACHE_SIZE = 4096


@dataclass(frozen=True)
class NavEntry:
    """One navigation link: lazy label, endpoint (company-scoped), sort order, optional group."""

    label: Any
    endpoint: str
    order: int = 100
    group: Any = None
    blueprint: str | None = None


def init_app(app: Flask) -> None:
    """Create the registry and expose the layout helpers to templates."""
    app.extensions.setdefault(EXTENSION, [])
    app.jinja_env.globals.update(nav_entries=nav_entries, url_with=url_with)


def register_area(
    app: Flask,
    blueprint: Blueprint,
    nav_label: Any = None,
    endpoint: str | None = None,
    order: int = 100,
    group: Any = None,
    **register_options,
) -> None:
    """Register an area's blueprint and, when `nav_label` is given, its navigation entry."""
    app.register_blueprint(blueprint, **register_options)
    if nav_label is not None:
        add_nav_entry(app, nav_label, endpoint or f"{blueprint.name}.index", order, group,
                      blueprint=blueprint.name)


def add_nav_entry(app: Flask, label: Any, endpoint: str, order: int = 100, group: Any = None,
                  blueprint: str | None = None) -> None:
    """Add one more navigation entry (an area with several pages, e.g. catalogues)."""
    entries = app.extensions.setdefault(EXTENSION, [])
    entries.append(NavEntry(label, endpoint, order, group, blueprint or endpoint.split(".")[0]))
    entries.sort(key=lambda entry: entry.order)
    app.extensions.pop(CACHE, None)


def nav_entries() -> list[dict]:
    """Entries for the current company: label, url, active, group (grouped ones in order).

    Built once per (company, page, script root) and kept: the labels are lazy, so one list
    serves every language, and a dozen url_for calls per page are not repeated.
    """
    if g.get("company_id") is None:
        return []
    cache = current_app.extensions.setdefault(CACHE, {})
    key = (g.company_id, request.endpoint, request.blueprint, request.script_root)
    found = cache.get(key)
    if found is None:
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        found = cache[key] = _build_entries()
    return found


def _build_entries() -> list[dict]:
    entries = current_app.extensions.get(EXTENSION, [])
    items = []
    for entry in entries:
        try:
            url = url_for(entry.endpoint, company_id=g.company_id)
        except BuildError:
            continue
        items.append({"label": entry.label, "url": url, "group": entry.group,
                      "active": _is_active(entry, entries)})
    return _grouped(items)


def _is_active(entry: NavEntry, entries: list[NavEntry]) -> bool:
    """The entry's own page, or any page of a blueprint that has just this one entry."""
    if request.endpoint == entry.endpoint:
        return True
    if entry.blueprint is None or request.blueprint != entry.blueprint:
        return False
    return sum(1 for other in entries if other.blueprint == entry.blueprint) == 1


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
