"""Pages of the named catalogues: one blueprint per catalogue, the same four views each.

    GET  /<slug>/        the list in the API's order (tags: name and origin filters)
    POST /<slug>/new     create one entry, once per rendered form
    POST /<slug>/rename  every changed name in one request; refused names stay on their rows
    POST /<slug>/delete  the selected entries; a report of what went and what stayed, and why
"""
from __future__ import annotations

import json

from flask import Blueprint, flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.auth import company_blueprint
from app.catalog import named
from app.catalog.forms import NameForm, TagFilterForm
from app.catalog.report import delete_report
from app.once import Recovery, create_once
from app.params import small_int
from app.templating import redirect_to
from app.upstream import RateLimited, Unavailable, ValidationError

NAME_MAX = 100


def make_blueprint(kind: named.Kind) -> Blueprint:
    """The blueprint of one named catalogue, mounted at /c/<id>/<slug>/."""
    bp = company_blueprint(kind.name, __name__, url_prefix=f"/{kind.slug}")
    for rule, view, method in (("/", index, "GET"), ("/new", create, "POST"),
                               ("/rename", rename, "POST"), ("/delete", delete, "POST")):
        bp.add_url_rule(rule, view.__name__, _bound(view, kind), methods=[method])
    return bp


def _bound(view, kind: named.Kind):
    """The view with its catalogue filled in (a real function: CSRF and logs read its name)."""
    def bound():
        return view(kind)

    bound.__name__ = f"{kind.name}_{view.__name__}"
    bound.__doc__ = view.__doc__
    return bound


def index(kind: named.Kind):
    """The list with its create, rename and delete forms."""
    return page(kind)


def create(kind: named.Kind):
    """Create one entry; a refused name stays in the form with the API's message."""
    form = NameForm()
    if form.validate():
        try:
            done = create_once(form, f"{kind.name}.create",
                               lambda: named.create(g.api, kind, form.name.data),
                               lambda created: _list_url(),
                               lambda created: _("“%(name)s” was created.",
                                                 name=created.get("name", form.name.data)),
                               _recovery(kind, form.name.data))
        except ValidationError as exc:
            form.place(exc)
        else:
            if done is not None:
                return done
    return page(kind, form=form, status=getattr(form, "lost_status", 400))


def _recovery(kind: named.Kind, name: str) -> Recovery:
    """A lost create is found by its name, which the API keeps unique in the catalogue."""
    def find(since) -> str | None:
        return _list_url() if named.find_created(g.api, kind, name) else None

    return Recovery(find, found=_("The accounting service answered late, but “%(name)s” was "
                                  "created.", name=name))


def rename(kind: named.Kind):
    """Send every changed name at once; refused ones are shown on their rows, as typed."""
    typed, base = _typed(request.form), _base(request.form)
    changes = {key: value for key, value in typed.items() if value != base.get(key)}
    problems = _name_problems(changes)
    if problems:
        return page(kind, typed=changes, row_errors=problems, status=400)
    if not changes:
        flash(_("No name was changed."), "info")
        return redirect_to(_list_url())
    result = named.rename(g.api, kind, changes)
    if not result.failed:
        flash(_("Names saved: %(num)d.", num=len(result.renamed)), "success")
        return redirect_to(_list_url())
    _say_partial(result)
    kept = {key: value for key, value in changes.items() if key not in result.renamed}
    return page(kind, typed=kept, row_errors=result.failed, status=400)


def _name_problems(changes: dict[int, str]) -> dict[int, list[str]]:
    """Names refused before sending: empty or too long."""
    problems = {key: [_("This field is required.")] for key, value in changes.items() if not value}
    problems.update({key: [_("At most %(max)d characters.", max=NAME_MAX)]
                     for key, value in changes.items() if len(value) > NAME_MAX})
    return problems


def delete(kind: named.Kind):
    """Delete the selected entries and show what was deleted and what was kept, and why."""
    ids = [i for i in map(small_int, request.form.getlist("ids")) if i is not None]
    if not ids:
        flash(_("Select at least one row to delete."), "warning")
        return redirect_to(_list_url())
    names = {item["id"]: item.get("name") for item in named.items(g.api, kind)}
    result = named.delete(g.api, kind, ids)
    return page(kind, report=delete_report(result, names))


def page(kind: named.Kind, *, form=None, typed=None, row_errors=None, report=None,
         status: int = 200):
    """The catalogue page; `typed` holds names to show instead of the stored ones."""
    filters = TagFilterForm(request.args) if kind.filters else None
    try:
        entries = named.items(g.api, kind, *_filter_values(filters))
    except (Unavailable, RateLimited):
        if status < 429:
            raise
        # The form above says the service is not answering; the list can wait, the input not.
        entries = []
    return render_template(
        "catalog/named.html", kind=kind, rows=entries, form=form or NameForm(),
        filters=filters, typed=typed or {}, row_errors=row_errors or {}, report=report,
        base=json.dumps({str(e["id"]): e.get("name") for e in entries}, ensure_ascii=False),
        query=_query()), status


def _filter_values(filters) -> tuple[str, str]:
    if filters is None:
        return "", ""
    external = filters.is_external.data if filters.is_external.data in ("true", "false") else ""
    return filters.name.data or "", external


def _say_partial(result: named.RenameResult) -> None:
    if result.renamed:
        flash(_("%(done)d saved; the names marked below were refused.",
                done=len(result.renamed)), "warning")
    else:
        flash(_("Nothing was renamed: correct the names marked below and save again."), "error")


def _typed(form) -> dict[int, str]:
    prefix = "name-"
    return {small_int(key[len(prefix):]): (value or "").strip() for key, value in form.items()
            if key.startswith(prefix) and small_int(key[len(prefix):]) is not None}


def _base(form) -> dict[int, str]:
    try:
        stored = json.loads(form.get("base") or "{}")
    except ValueError:
        stored = {}
    return {small_int(key): value for key, value in stored.items()
            if small_int(key) is not None and isinstance(value, str)} \
        if isinstance(stored, dict) else {}


def _query() -> dict:
    """The list's filters, carried through the page's forms."""
    return {key: value for key, value in request.args.items() if key in ("name", "is_external")}


def _list_url() -> str:
    return url_for(".index", **_query())
