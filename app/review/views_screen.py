"""The review screen: one income beside its document; done / save and done / skip step on."""
from __future__ import annotations

from functools import partial

from flask import abort, g, make_response, request
from flask_babel import gettext as _

from app.auth import current_actor
from app.errors import lost_write_response
from app.expenses.files import file_response
from app.htmx import is_htmx, redirect_to, render
from app.review import actions, bp, compare, flow, prefetch, required, screen, walk
from app.upstream import RateLimited, Unavailable, UpstreamError, ValidationError
from app.upstream import incomes as income_upstream


@bp.get("/<int:income_id>", endpoint="screen")
def screen_page(income_id: int):
    """One income of the queue (the queue is read once per walk; the income usually ahead)."""
    bits = flow.base()
    current, found = flow.ensure_walk(bits, {"pair": partial(prefetch.get, g.api, income_id)})
    record, artifact = found.get("pair") or prefetch.get(g.api, income_id)
    return _show(flow.screen_context(bits, current, record, artifact))


@bp.post("/<int:income_id>/done")
def act(income_id: int):
    """Done (the default), save and done, or skip (the pressed button); then the next income
    in place."""
    bits = flow.base()
    current, _found = flow.ensure_walk(bits)
    choice = request.form.get("action") or "done"
    if choice == "skip":
        actions.skip(g.company_id, current_actor(), income_id)
        current.skip(income_id)
        return _step(bits, current, income_id)
    if choice not in ("done", "save_done"):
        abort(400)
    record, _artifact = prefetch.get(g.api, income_id, with_artifact=False)
    form = screen.build_form(record, bits.settings, bits.catalogs)
    if choice == "save_done" or screen.is_dirty(form):
        return _save_done(bits, current, income_id)
    return _done(bits, current, record, form)


def _done(bits, current: walk.Walk, record: dict, form):
    seen = compare.decode(request.form.get("seen"))
    if not screen.can_mark_done(record):
        return _refused(bits, current, record)
    found = required.missing(record, bits.settings)
    if found:
        return _incomplete(bits, current, record, form, found)
    try:
        result = actions.done(g.api, g.company_id, current_actor(), record["id"], seen,
                              screen.names(bits.catalogs))
    except (Unavailable, RateLimited) as exc:
        form = screen.build_form(record, bits.settings, bits.catalogs)
        return _lost(bits, current, record, form, exc)
    prefetch.keep(g.api, result.record)
    if result.kind == "conflict":
        return _show(flow.screen_context(bits, current, result.record, None,
                                         changes=result.changes), 409)
    current.close(record["id"])
    return _step(bits, current, record["id"])


def _save_done(bits, current: walk.Walk, income_id: int):
    """Read the income first, so nobody's change is overwritten; then one write."""
    latest = g.api.get(prefetch.DETAIL.format(id=income_id), {"fields": prefetch.DETAIL_FIELDS})
    prefetch.keep(g.api, latest)
    form = screen.build_form(latest, bits.settings, bits.catalogs)
    refused = _unsendable(bits, current, form, latest)
    if refused is not None:
        return refused
    try:
        result = actions.save_done(g.api, g.company_id, current_actor(), latest,
                                   screen.complete(form.changes(), latest))
    except ValidationError as exc:
        form.apply_upstream(exc)
        return _show(flow.screen_context(bits, current, latest, None, form=form), 400)
    except (Unavailable, RateLimited) as exc:
        return _lost(bits, current, latest, form, exc)
    prefetch.keep(g.api, result.record)
    current.close(income_id)
    return _step(bits, current, income_id)


def _lost(bits, current: walk.Walk, record: dict, form, exc):
    """The write got no answer: the same income stays, the reviewer's input kept, a reload
    link (htmx leaves the screen as it is and shows the message alone)."""
    pair = prefetch.cached(g.api, record["id"], wait=0)
    prefetch.forget(g.api, record["id"])  # its state is unknown now: a reload reads it again
    here = flow.screen_url(record["id"], bits.filters.key)
    return lost_write_response(
        lambda text: _show(flow.screen_context(bits, current, record, pair[1] if pair else None,
                                               form=form, problem=text, reload_url=here)),
        exc, _("The accounting service did not answer. The income may already be marked done: "
               "reload it to see, then send again if needed."), reload_url=here)


def _unsendable(bits, current: walk.Walk, form, latest: dict):
    """The screen to show instead of saving (errors, a change underneath, a locked flag)."""
    if not form.check():
        return _show(flow.screen_context(bits, current, latest, None, form=form), 400)
    form.changes()
    seen = compare.decode(request.form.get("seen")) or compare.view(latest)
    changed = compare.changes(seen, latest, screen.names(bits.catalogs))
    if form.conflicts or changed:
        form = screen.after_conflict(form, latest, bits.settings, bits.catalogs)
        return _show(flow.screen_context(bits, current, latest, None, form=form,
                                         changes=changed), 409)
    if not screen.can_mark_done(latest):
        return _refused(bits, current, latest)
    after = required.merged(latest, screen.complete(form.changes(), latest))
    found = required.missing(after, bits.settings)
    return _incomplete(bits, current, latest, form, found) if found else None


def _incomplete(bits, current: walk.Walk, record: dict, form, found: list):
    """Done refused before any write: what the API will require is on its field."""
    required.show(form, found)
    return _show(flow.screen_context(bits, current, record, None, form=form), 400)


def _refused(bits, current: walk.Walk, record: dict):
    message = _("This income's review flag cannot be changed here (it is processed or booked). "
                "Skip it, or open the income.")
    return _show(flow.screen_context(bits, current, record, None, problem=message), 400)


def _step(bits, current: walk.Walk, income_id: int):
    """Store the walk, then show the next open income (or the end of the queue)."""
    upcoming = flow.next_open(current, income_id)
    walk.save(g.company_id, current)
    if upcoming is None:
        context = flow.end_context(bits, current)
        target = flow.screen_url(income_id, bits.filters.key)
    else:
        context = flow.screen_context(bits, current, upcoming[1], upcoming[2])
        target = flow.screen_url(upcoming[0], bits.filters.key)
    if not is_htmx():
        return redirect_to(target)
    return _show(context, push=target)


def _show(context: dict, status: int = 200, push: str | None = None):
    response = make_response(render("review/screen.html", "review/_screen.html",
                                    fragment=is_htmx(), **context), status)
    if push:
        response.headers["HX-Push-Url"] = push
    return response


@bp.get("/<int:income_id>/document")
def document(income_id: int):
    """The income's file from this origin (inline for PDF and images; ?download=1 to save)."""
    pair = prefetch.cached(g.api, income_id, wait=5)
    content = _content(pair[1]) if pair else None
    record = None
    if content is None:
        record = income_upstream.artifact(g.api, income_id)
        content = _content(record)
    if content is None:
        abort(404)
    record = record or pair[1]
    return file_response(content, record.get("filename"), request.args.get("download") == "1")


def _content(artifact: dict | None) -> bytes | None:
    """The bytes behind an artifact record's signed link (None: no link, or it has expired)."""
    if not artifact or not artifact.get("url"):
        return None
    try:
        return g.api.download(artifact["url"])[0]
    except UpstreamError:
        return None
