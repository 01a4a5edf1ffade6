"""Catalogue pages, request to response (routes in app/catalog/__init__.py).

Named catalogues (tags, expense types, revenue types), each view taking its catalogue first:
    GET  /<slug>/        the list in the API's order (tags: name and origin filters)
    POST /<slug>/new     create one entry, once per rendered form
    POST /<slug>/rename  every changed name in one request; refused names stay on their rows
    POST /<slug>/delete  the selected entries; a report of what went and what stayed, and why
VAT categories: the list with the create form, and the edit form of one category. Currencies:
ids and ISO codes, the company's own marked (spec 2.7). Documents (spec 2.11): attached and
unattached files, each downloaded through the pre-signed, token-free link the API hands out
(it expires, so the page is the place to get a fresh one).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from flask import abort, flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.catalog import forms, service
from app.catalog.forms import NameForm, TagFilterForm
from app.catalog.present import FILTERS, delete_report, record_url, size_label
from app.errors import lost_write_response
from app.files import fetch_file, file_response
from app.forms import company_settings
from app.forms.filters import small_int
from app.i18n import collated
from app.once import Recovery, create_once
from app.templating import redirect_to, render
from app.upstream import RateLimited, Unavailable, ValidationError, catalog, run_parallel

NAME_MAX = 100
DOCUMENTS_PAGE_SIZE = 50


def named_index(kind: service.Kind):
    """The list with its create, rename and delete forms."""
    return named_page(kind)


def named_create(kind: service.Kind):
    """Create one entry; a refused name stays in the form with the API's message."""
    form = NameForm()
    if form.validate():
        try:
            done = create_once(form, f"{kind.name}.create",
                               lambda: service.create(g.api, kind, form.name.data),
                               lambda created: _list_url(),
                               lambda created: _("“%(name)s” was created.",
                                                 name=created.get("name", form.name.data)),
                               _named_recovery(kind, form.name.data))
        except ValidationError as exc:
            form.place(exc)
        else:
            if done is not None:
                return done
    return named_page(kind, form=form, status=getattr(form, "lost_status", 400))


def _named_recovery(kind: service.Kind, name: str) -> Recovery:
    """A lost create is found by its name, which the API keeps unique in the catalogue."""
    def find(since, known) -> str | None:
        return _list_url() if service.find_created(g.api, kind, name) else None

    return Recovery(find, found=_("The accounting service did not confirm the request, but "
                                  "“%(name)s” was created.", name=name))


def named_rename(kind: service.Kind):
    """Send every changed name at once; refused ones are shown on their rows, as typed."""
    typed, base = _typed(request.form), _base(request.form)
    changes = {key: value for key, value in typed.items() if value != base.get(key)}
    problems = _name_problems(changes)
    if problems:
        return named_page(kind, typed=changes, row_errors=problems, status=400)
    if not changes:
        flash(_("No name was changed."), "info")
        return redirect_to(_list_url())
    try:
        result = service.rename(g.api, kind, changes)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _named_again(kind, text, changes), exc)
    if not result.failed:
        flash(_("Names saved: %(num)d.", num=len(result.renamed)), "success")
        return redirect_to(_list_url())
    _say_partial(result)
    kept = {key: value for key, value in changes.items() if key not in result.renamed}
    return named_page(kind, typed=kept, row_errors=result.failed, status=400)


def _name_problems(changes: dict[int, str]) -> dict[int, list[str]]:
    """Names refused before sending: empty or too long."""
    problems = {key: [_("This field is required.")] for key, value in changes.items() if not value}
    problems.update({key: [_("At most %(max)d characters.", max=NAME_MAX)]
                     for key, value in changes.items() if len(value) > NAME_MAX})
    return problems


def named_delete(kind: service.Kind):
    """Delete the selected entries and show what was deleted and what was kept, and why."""
    ids = [i for i in map(small_int, request.form.getlist("ids")) if i is not None]
    if not ids:
        flash(_("Select at least one row to delete."), "warning")
        return redirect_to(_list_url())
    names = {item["id"]: item.get("name") for item in service.items(g.api, kind)}
    try:
        result = service.delete(g.api, kind, ids)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _named_again(kind, text), exc, _(
            "The accounting service did not confirm the request. The entries may already be "
            "deleted: check the list before deleting again."))
    return named_page(kind, report=delete_report(result, names))


def _named_again(kind: service.Kind, text: str, typed: dict | None = None) -> str:
    """The catalogue after a write with no answer: the reason on top, the typed names kept."""
    flash(text, "warning")
    return named_page(kind, typed=typed, status=503)[0]


def named_page(kind: service.Kind, *, form=None, typed=None, row_errors=None, report=None,
         status: int = 200):
    """The catalogue page; `typed` holds names to show instead of the stored ones."""
    filters = TagFilterForm(request.args) if kind.filters else None
    try:
        entries = service.items(g.api, kind, *_filter_values(filters))
    except (Unavailable, RateLimited):
        if status < 429:
            raise
        # The form above says the service is not answering; the list can wait, the input not.
        entries = []
    _say_unlisted(row_errors or {}, typed or {}, {entry["id"] for entry in entries})
    return render_template(
        "catalog/named.html", kind=kind, rows=collated(entries, "name"), form=form or NameForm(),
        filters=filters, typed=typed or {}, row_errors=row_errors or {}, report=report,
        base=json.dumps({str(e["id"]): e.get("name") for e in entries}, ensure_ascii=False),
        query=_query()), status


def _filter_values(filters) -> tuple[str, str]:
    if filters is None:
        return "", ""
    external = filters.is_external.data if filters.is_external.data in ("true", "false") else ""
    return filters.name.data or "", external


def _say_partial(result: service.RenameResult) -> None:
    if result.renamed:
        flash(_("%(done)d saved; the names marked below were refused.",
                done=len(result.renamed)), "warning")
    else:
        flash(_("Nothing was renamed: correct the names marked below and save again."), "error")


def _say_unlisted(row_errors: dict, typed: dict, listed: set) -> None:
    """Refusals of entries the list no longer shows (deleted meanwhile): above the list."""
    for item_id, messages in row_errors.items():
        if item_id not in listed:
            name = typed.get(item_id) or f"#{item_id}"
            flash(_("“%(name)s” was not saved: %(reason)s", name=name,
                    reason=" ".join(messages)), "error")


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




def vat_index():
    """Every category with its type (read-only), and a form to add one."""
    return _vat_page(forms.VatForm())


def vat_create():
    """Create a category, once per rendered form; refusals stay on their fields."""
    form = forms.VatForm()
    if form.validate():
        try:
            done = _create_vat(form)
        except ValidationError as exc:
            form.place(exc)
        else:
            if done is not None:
                return done
    return _vat_page(form, getattr(form, "lost_status", 400))


def _create_vat(form):
    """The create, sent once; its twins are noted in the send, before the write, so a
    repeated submit reads nothing."""
    body, twins = form.payload(), set()

    def send() -> dict:
        twins.update(service.vat_twins(g.api, body))  # none of these is what it makes
        return service.create_vat(g.api, body)
    return create_once(form, "vat_categories.create", send, lambda created: url_for(".index"),
                       lambda created: _("The VAT category “%(name)s” was created.",
                                         name=created.get("name", form.name.data)),
                       _vat_recovery(body, lambda: frozenset(twins)))


def _vat_recovery(body: dict, twins: Callable[[], frozenset[int]]) -> Recovery:
    """A lost create is found by name, rate, type (and area and country when given), none
    of the twins its send noted before the write."""
    def find(since, known) -> str | None:
        return url_for(".index") if service.find_created_vat(g.api, body, known) else None

    return Recovery(find, known=twins, found=_(
        "The accounting service did not confirm the request, but the VAT category “%(name)s” "
        "was created.", name=body["name"]))


def vat_edit(vat_category_id: int):
    """Edit a category's name, rate, area, country and type."""
    record = service.find_vat(g.api, vat_category_id) or abort(404)
    form = forms.VatForm(data=forms.initial(record))
    if not form.is_submitted():
        return _vat_edit_page(form, record)
    if not form.validate():
        return _vat_edit_page(form, record), 400
    try:
        service.update_vat(g.api, vat_category_id, form.payload())
    except ValidationError as exc:
        form.place(exc)
        return _vat_edit_page(form, record), 400
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _vat_edit_page(form, record, text), exc)
    flash(_("The VAT category “%(name)s” was saved.", name=form.name.data), "success")
    return redirect_to(url_for(".index"))


def _vat_edit_page(form, record: dict, problem: str | None = None) -> str:
    """The category's form; problem (the save got no answer) goes above it, input kept."""
    if problem:
        form.form_errors.append(problem)
    return render_template("catalog/vat_edit.html", form=form, record=record)


def _vat_page(form, status: int = 200):
    try:
        entries = catalog.get(g.api, "vat_categories")
    except (Unavailable, RateLimited):
        if status < 429:
            raise
        # The form above says the service is not answering; the list can wait, the input not.
        entries = []
    return render_template("catalog/vat.html", rows=entries, form=form,
                           type_labels=forms.TYPE_LABELS, area_labels=forms.AREA_LABELS), status




def currencies_index():
    """Every currency the API knows, with the id its payloads use."""
    data = run_parallel({"currencies": partial(catalog.get, g.api, "currencies"),
                         "company": partial(company_settings, g.api)})
    return render_template("catalog/currencies.html", rows=data["currencies"],
                           default_code=data["company"].get("default_currency_name"))

def documents_index():
    """One page of documents, newest first; ?attached=true|false narrows it."""
    attached = request.args.get("attached", "")
    attached = attached if attached in ("true", "false") else ""
    page = catalog.documents_page(g.api, {"is_attached": attached or None,
                                          "page_size": DOCUMENTS_PAGE_SIZE,
                                          "cursor": request.args.get("cursor") or None})
    return render("catalog/documents.html", "catalog/_documents.html", page=page,
                  attached=attached, filters=FILTERS, next_cursor=page.next_cursor,
                  prev_cursor=page.previous_cursor, record_url=record_url,
                  size_label=size_label, served=g.api.reaches(catalog.DOCUMENT_FILES))


def document_file(document_id: int):
    """The document's file, fetched through a fresh signed link, as a download from this
    origin (named as the list names it: the link carries no name of its own)."""
    _record, content = fetch_file(partial(catalog.document_file, g.api, document_id))
    return file_response(content, request.args.get("name") or f"document-{document_id}", True)
