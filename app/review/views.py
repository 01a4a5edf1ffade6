"""The review pages, request -> response: the queue (filters, sorting, pages, bulk "done"), the
review screen (one income beside its document; done / save and done / skip step on), the
document proxy, the log of recent actions and undo."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from flask import abort, flash, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import pgettext

from app.auth import current_actor
from app.auth.flow import here as sending_page
from app.errors import lost_write_response
from app.exports import download, first_page_now
from app.files import fetch_file, file_response
from app.forms import settings_and_catalogs
from app.forms.display import select_choices
from app.forms.filters import whole
from app.incomes.flow import FORM_CATALOGS
from app.nav import safe_next
from app.review import actions, bulk, flow, forms, prefetch, present
from app.store.history import get_action, recent_actions
from app.templating import is_htmx, record_number, redirect_to, render
from app.upstream import (
    Page,
    PermissionDenied,
    RateLimited,
    Unavailable,
    ValidationError,
)
from app.upstream import incomes as income_upstream
from app.upstream import parallel as page_budget
from app.upstream.errors import upstream_messages

PAGE = 100


def screen_page(income_id: int):
    """One income of the queue (the queue is read once per walk; the income usually ahead)."""
    bits = flow.base()
    current, found = flow.ensure_walk(bits, {"pair": partial(prefetch.get, g.api, income_id)})
    record, artifact = found.get("pair") or prefetch.get(g.api, income_id)
    return _show(flow.screen_context(bits, current, record, artifact))


def act(income_id: int):
    """Done (the default), save and done, or skip (the pressed button); then the next income
    in place."""
    bits = flow.base()
    current, _found = flow.ensure_walk(bits)
    choice = request.form.get("action") or "done"
    if choice == "skip":
        shown = prefetch.cached(g.api, income_id, wait=0)
        actions.skip(g.company_id, current_actor(), income_id, shown[0] if shown else None)
        current.skip(income_id)
        return _step(bits, current, income_id)
    if choice not in ("done", "save_done"):
        abort(400)
    record, artifact = prefetch.get(g.api, income_id, with_artifact=False)
    form = present.build_form(record, bits.settings, bits.catalogs)
    if choice == "save_done" or present.is_dirty(form):
        return _save_done(bits, current, income_id)
    return _done(bits, current, record, form, artifact)


def _done(bits, current: flow.Walk, record: dict, form, artifact: dict | None):
    seen = forms.decode(request.form.get("seen"))
    if record.get("review_done"):  # e.g. a done whose answer was lost went through
        return _already_done(bits, current, record)
    if not present.can_mark_done(record):
        return _refused(bits, current, record, artifact)
    found = actions.missing(record, bits.settings)
    if found:
        return _incomplete(bits, current, record, form, found, artifact)
    try:
        result = actions.done(g.api, g.company_id, current_actor(), record["id"], seen,
                              present.names(bits.catalogs))
    except (Unavailable, RateLimited) as exc:
        form = present.build_form(record, bits.settings, bits.catalogs)
        return _lost(bits, current, record, form, exc)
    except ValidationError as exc:  # a 400, or a 403 (WriteRefused): the same income, the reason
        status = 403 if isinstance(exc, PermissionDenied) else 400
        return _show(flow.screen_context(bits, current, record, _document(record, artifact),
                                         problem=" ".join(upstream_messages(exc))), status)
    return _after_done(bits, current, record, result, artifact)


def _after_done(bits, current: flow.Walk, record: dict, result: actions.Result,
                artifact: dict | None = None):
    """The screen after the write: the change someone made meanwhile, else the next income."""
    prefetch.keep(g.api, result.record, artifact)
    if result.kind == "conflict":
        return _show(flow.screen_context(bits, current, result.record,
                                         _document(result.record, artifact),
                                         changes=result.changes), 409)
    if result.kind == "done_elsewhere":
        flash(_("%(number)s was already marked done by %(who)s, as it is now: it stays done.",
                number=record_number(result.record), who=result.action.actor), "info")
    current.close(record["id"])
    return _step(bits, current, record["id"])


def _already_done(bits, current: flow.Walk, record: dict):
    """Nothing to send: say so (by whom, when the log knows; this reviewer's own done whose
    answer was lost is logged now) and go on to the next income."""
    result = actions.already_done(g.company_id, current_actor(), record)
    if result.kind == "done_elsewhere":
        return _after_done(bits, current, record, result)
    flash(_("%(number)s is already marked done; nothing was sent again.",
            number=record_number(record)), "info")
    current.close(record["id"])
    return _step(bits, current, record["id"])


def _save_done(bits, current: flow.Walk, income_id: int):
    """Read the income first, so nobody's change is overwritten; then one write."""
    artifact = _cached_artifact(income_id)  # the write drops the prefetched copy
    latest = prefetch.read(g.api, income_id, with_artifact=False)[0]
    prefetch.keep(g.api, latest, artifact)
    if actions.lost_save_landed(g.company_id, current_actor(), latest) is not None:
        return _landed_save(bits, current, latest)
    form = present.build_form(latest, bits.settings, bits.catalogs)
    refused = _unsendable(bits, current, form, latest)
    if refused is not None:
        return refused
    try:
        result = actions.save_done(g.api, g.company_id, current_actor(), latest,
                                   present.complete(form.changes(), latest))
    except ValidationError as exc:
        form.apply_upstream(exc)
        return _show(flow.screen_context(bits, current, latest, _document(latest, artifact),
                                         form=form), 400)
    except (Unavailable, RateLimited) as exc:
        return _lost(bits, current, latest, form, exc)
    prefetch.keep(g.api, result.record)
    current.close(income_id)
    return _step(bits, current, income_id)


def _landed_save(bits, current: flow.Walk, record: dict):
    """This reviewer's earlier save and done, whose answer was lost, is found applied (and now
    logged): say so, send nothing again, go on to the next income."""
    flash(_("%(number)s was already saved and marked done: the accounting service's answer "
            "was lost, so nothing was sent again.", number=record_number(record)), "info")
    current.close(record["id"])
    return _step(bits, current, record["id"])


def _lost(bits, current: flow.Walk, record: dict, form, exc):
    """The write got no answer: the same income stays, the reviewer's input kept, a reload
    link (htmx leaves the screen as it is and shows the message alone)."""
    artifact = _cached_artifact(record["id"])
    here = flow.screen_url(record["id"], bits.key)
    return lost_write_response(
        lambda text: _show(flow.screen_context(bits, current, record, artifact,
                                               form=form, problem=text, reload_url=here)),
        exc, _("The accounting service did not confirm the request. The income may already be "
               "marked done: reload it to see, then send again if needed."), reload_url=here)


def _unsendable(bits, current: flow.Walk, form, latest: dict):
    """The screen to show instead of saving (errors, a change underneath, a locked flag)."""
    if not form.check():
        return _show(flow.screen_context(bits, current, latest, _document(latest), form=form),
                     400)
    form.changes()
    seen = forms.decode(request.form.get("seen")) or forms.view(latest)
    changed = forms.changes(seen, latest, present.names(bits.catalogs))
    if form.conflicts or changed:
        form = present.after_conflict(form, latest, bits.settings, bits.catalogs)
        theirs = actions.done_standing(g.company_id, latest) if latest.get("review_done") else None
        problem = _("%(who)s marked this income done meanwhile, as it is now, so your changes "
                    "were not saved. Skip to the next income, or open this one to change it.",
                    who=theirs.actor) if theirs else None
        return _show(flow.screen_context(bits, current, latest, _document(latest), form=form,
                                         changes=changed, problem=problem), 409)
    if not present.can_mark_done(latest):
        return _refused(bits, current, latest)
    after = actions.merged(latest, present.complete(form.changes(), latest))
    found = actions.missing(after, bits.settings)
    return _incomplete(bits, current, latest, form, found) if found else None


def _incomplete(bits, current: flow.Walk, record: dict, form, found: list,
                artifact: dict | None = None):
    """Done refused before any write: what the API will require is on its field."""
    actions.show(form, found)
    return _show(flow.screen_context(bits, current, record, _document(record, artifact),
                                     form=form), 400)


def _refused(bits, current: flow.Walk, record: dict, artifact: dict | None = None):
    message = _("This income's review flag cannot be changed here (it is processed or booked). "
                "Skip it, or open the income.")
    return _show(flow.screen_context(bits, current, record, _document(record, artifact),
                                     problem=message), 400)


def _document(record: dict, artifact: dict | None = None) -> dict | None:
    """The artifact record of an income the screen stays on: the one in hand or the
    prefetch's; read only when neither has it and the income has a file."""
    artifact = artifact or _cached_artifact(record["id"])
    if artifact is None and record.get("has_artifact") is not False:
        artifact = income_upstream.artifact(g.api, record["id"])
    return artifact


def _cached_artifact(income_id: int) -> dict | None:
    """The income's artifact record as the prefetch holds it (no upstream read)."""
    pair = prefetch.cached(g.api, income_id, wait=0)
    return pair[1] if pair else None


def _step(bits, current: flow.Walk, income_id: int):
    """Store the walk, then show the next open income (or the end of the queue)."""
    upcoming = flow.next_open(current, income_id)
    flow.save_walk(g.company_id, current)
    if upcoming is None:
        context = flow.end_context(bits, current)
        target = flow.screen_url(income_id, bits.key)
    else:
        context = flow.screen_context(bits, current, upcoming[1], upcoming[2])
        target = flow.screen_url(upcoming[0], bits.key)
    if not is_htmx():
        return redirect_to(target)
    return _show(context, push=target)


def _show(context: dict, status: int = 200, push: str | None = None):
    response = make_response(render("review/screen.html", "review/_screen.html",
                                    fragment=is_htmx(), **context), status)
    if push:
        response.headers["HX-Push-Url"] = push
    return response


def document(income_id: int):
    """The income's file from this origin (inline for PDF and images; ?download=1 to save)."""
    pair = prefetch.cached(g.api, income_id, wait=5)
    record, content = fetch_file(partial(income_upstream.artifact, g.api, income_id),
                                 pair[1] if pair else None)
    return file_response(content, record.get("filename"), request.args.get("download") == "1")


def index():
    """The queue as the URL filters, sorts and pages it (an API page, or a local scan)."""
    bits = flow.base()
    page, problems, partners = flow.QueuePage([], 0, bits.filters.page,
                                               bits.filters.page_size), [], frozenset()
    if bits.filters.params is not None:
        try:
            found = page_budget.read({
                "page": partial(flow.load_page, g.api, bits.filters, bits.context),
                "partners": partial(flow.new_partners, g.api)}, optional=["partners"])
            page, partners = found["page"], found.get("partners", frozenset())
        except ValidationError as exc:
            problems = upstream_messages(exc) or [
                _("The accounting service did not accept the filter.")]
    context = present.Context(bits.context.policies, bits.context.codes, partners)
    _name_partner(bits.filters.form, page.lookups.get("partners") or {})
    status = 400 if bits.filters.params is None or problems else 200
    return render("review/index.html", "review/_queue.html", **_queue_context(
        bits, page, context, problems)), status


def export():
    """The queue of the current filter and ordering as CSV or XLSX (?format=xlsx), every page
    of it (app/exports.py)."""
    bits = flow.base(partners=True)
    if bits.filters.params is None:
        return index()
    try:
        pages = first_page_now(flow.export_pages(g.api, bits.filters, bits.context))
    except ValidationError:
        return index()
    return download(present.queue_header(), pages, partial(present.queue_row, bits.context),
                    bits.context.codes, pgettext("file name", "review-queue"))


def _queue_context(bits, page, context: present.Context, problems: list) -> dict:
    tags = page.lookups.get("tags") or {}
    rows = present.queue_rows(page.rows, context, bits.context.codes, tags)
    return {"form": bits.filters.form, "page": page, "rows": rows, "problems": problems,
            "key": bits.key, "filtered": bits.filters.form.is_filtered(),
            "local": bits.filters.local.active, "has_policies": context.has_policies,
            "last_action": present.last_undoable(g.company_id, current_actor())}


def _name_partner(form, partners: dict) -> None:
    value = form.partner.data
    if value and str(value).isdigit():
        form.partner.choices = select_choices([("", _("Any")),
                                              (value, partners.get(int(value), f"#{value}"))])


def bulk_done():
    """Mark the selected rows (or every income matching the filter) done; then the queue."""
    bits = flow.base()
    back = url_for(".index") + (f"?{bits.key}" if bits.key else "")
    selection, known = _selection(bits)
    if not selection:
        return redirect_to(back)
    records = known or flow.selected_records(g.api, bits.filters.params or forms.QUEUE,
                                             [income_id for income_id, _fp in selection])
    refused = actions.refused(records, bits.settings, bits.context.codes)
    selection = [(income_id, fp) for income_id, fp in selection if income_id not in refused]
    result = bulk.mark_done(g.api, g.company_id, current_actor(), selection, records)
    result.failed.update(refused)
    _close_in_walk([*result.done, *result.already])
    _report_bulk(result, partial(_number, records))
    return redirect_to(back)


def _selection(bits) -> tuple[list, dict]:
    """The (id, fingerprint) pairs to mark done, and the list records already read (scope all)."""
    if request.form.get("scope") != "all":
        selection = bulk.parse_selection(request.form.getlist("ids"))
        if not selection:
            flash(_("Select the incomes to mark done first."), "info")
        return selection, {}
    if bits.filters.params is None:
        return [], {}
    rows, _lookups, capped = flow.scan(g.api, bits.filters.params, bits.filters.local,
                                        bits.context, cap=bulk.MAX_BULK)
    expected = request.form.get("expected", "")
    if capped or str(len(rows)) != expected:
        flash(_("The queue changed since you looked: %(now)s incomes match now, not "
                "%(then)s. Nothing was marked; check the list and try again.",
                now=len(rows), then=expected or "?") if not capped else
              _("More than %(max)s incomes match. Narrow the filter and try again.",
                max=bulk.MAX_BULK), "warning")
        return [], {}
    return ([(row["id"], forms.fingerprint(row)) for row in rows],
            {row["id"]: row for row in rows})


def _close_in_walk(income_ids: list[int]) -> None:
    current = flow.load_walk(g.company_id)
    if current is None or not income_ids:
        return
    for income_id in income_ids:
        current.close(income_id)
    flow.save_walk(g.company_id, current)


def _report_bulk(result: bulk.BulkResult, number: Callable[[int], str]) -> None:
    if result.done:
        flash(_("Marked done: %(num)s.", num=len(result.done)), "success")
    _report_already(result.already, number)
    if result.changed:
        flash(_("Changed since you loaded the list, so left for review: %(numbers)s",
                numbers=", ".join(map(number, result.changed))), "warning")
    for income_id, message in result.failed.items():
        flash(_("%(number)s was not marked done: %(reason)s", number=number(income_id),
                reason=message), "error")
    if result.unconfirmed:
        flash(_("The accounting service did not confirm %(numbers)s, so they may or may not "
                "be marked done: check them before marking them again.",
                numbers=", ".join(map(number, result.unconfirmed))), "warning")
    if result.refused is not None:
        flash(_("Stopped at the first refusal: the accounting service does not let your token "
                "change incomes (%(number)s was refused; a viewer, for example, cannot change "
                "records). Marked done before that: %(done)s. Not sent: %(left)s.",
                number=number(result.refused), done=len(result.done),
                left=len(result.not_sent)), "error")


def _report_already(already: dict[int, str | None], number: Callable[[int], str]) -> None:
    """The incomes someone had marked done already: left as they are, not logged as yours."""
    for who in dict.fromkeys(already.values()):
        named = ", ".join(number(i) for i, by in already.items() if by == who)
        flash(_("Already marked done by %(who)s, so left as they are: %(numbers)s",
                who=who, numbers=named) if who else
              _("Already marked done, so left as they are: %(numbers)s", numbers=named), "info")


def _number(records: dict[int, dict], income_id: int) -> str:
    """An income of the bulk action as the queue names it (read before the writes)."""
    return record_number(records.get(income_id) or {"id": income_id})


def action_log():
    """The company's latest review actions: who, when, which incomes, before and after."""
    _settings, catalogs = settings_and_catalogs(g.api, FORM_CATALOGS)
    names = present.names(catalogs)
    entries = [{"action": action, "can_undo": present.can_undo(action),
                "incomes": [(i, present.logged_number(action, i), present.lines(action, i, names))
                            for i in action.income_ids]}
               for action in recent_actions(g.company_id, limit=PAGE)]
    return render_template("review/actions.html", log_entries=entries)


def export_log():
    """The recent actions as the log page lists them, as CSV or XLSX (?format=xlsx)."""
    _settings, catalogs = settings_and_catalogs(g.api, FORM_CATALOGS)
    rows = present.log_rows(recent_actions(g.company_id, limit=PAGE), present.names(catalogs))
    return download(present.log_header(), [Page(items=rows)], lambda line, _lookups: line, {},
                    pgettext("file name", "review-log"))


def undo_action():
    """Undo one logged action; back to the screen (showing the income again) or the page."""
    action_id = whole(request.form.get("action_id"), "action_id", minimum=1)
    action = get_action(g.company_id, action_id) if action_id is not None else None
    if action is None:
        abort(404)
    result = bulk.undo(g.api, g.company_id, current_actor(), action)
    _reopen(result.reverted)
    bulk.report_undo(g.api, result, partial(present.logged_number, action))
    back = request.form.get("back")
    if back == "screen" and result.reverted:
        return _back_to_screen(result.reverted[-1])
    # Nothing came back to show: the reviewer stays on the page they pressed undo on.
    target = sending_page() if back == "screen" else back
    return redirect_to(safe_next(target) or url_for(".actions"))


def _reopen(income_ids: list[int]) -> None:
    current = flow.load_walk(g.company_id)
    if current is not None and income_ids:
        for income_id in income_ids:
            current.reopen(income_id)
        flow.save_walk(g.company_id, current)


def _back_to_screen(income_id: int):
    """Show the income whose action was undone, in place of the current one."""
    bits = flow.base()
    target = flow.screen_url(income_id, bits.key)
    if not is_htmx():
        return redirect_to(target)
    current, _found = flow.ensure_walk(bits)
    record, artifact = prefetch.get(g.api, income_id)
    response = _show(flow.screen_context(bits, current, record, artifact), push=target)
    return response
