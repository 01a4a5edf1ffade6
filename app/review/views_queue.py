"""The review queue: incomes waiting for review, why, filters, sorting, pages; bulk "done"."""
from __future__ import annotations

from functools import partial

from flask import flash, g, request, url_for
from flask_babel import gettext as _

from app.auth import current_actor
from app.review import bp, bulk, compare, flow, prefetch, queue, required, walk
from app.review.log_view import last_undoable
from app.review.reasons import Context
from app.review.rows import queue_rows
from app.templating import redirect_to, render
from app.upstream import ValidationError
from app.upstream import parallel as page_budget


@bp.get("/")
def index():
    """The queue as the URL filters, sorts and pages it (an API page, or a local scan)."""
    bits = flow.base()
    page, problems, partners = queue.QueuePage([], 0, bits.filters.page,
                                               bits.filters.page_size), [], frozenset()
    if bits.filters.params is not None:
        try:
            found = page_budget.read({
                "page": partial(queue.load, g.api, bits.filters, bits.context),
                "partners": partial(queue.new_partners, g.api)}, optional=["partners"])
            page, partners = found["page"], found.get("partners", frozenset())
        except ValidationError as exc:
            problems = exc.messages() or [_("The accounting service did not accept the filter.")]
    context = Context(bits.context.policies, bits.context.codes, partners)
    _name_partner(bits.filters.form, page.lookups.get("partners") or {})
    status = 400 if bits.filters.params is None or problems else 200
    return render("review/index.html", "review/_queue.html", **_queue_context(
        bits, page, context, problems)), status


def _queue_context(bits, page, context: Context, problems: list) -> dict:
    tags = page.lookups.get("tags") or {}
    rows = queue_rows(page.rows, context, bits.context.codes, tags)
    return {"form": bits.filters.form, "page": page, "rows": rows, "problems": problems,
            "key": bits.filters.key, "filtered": bits.filters.form.is_filtered(),
            "local": bits.filters.local.active, "has_policies": context.has_policies,
            "last_action": last_undoable(g.company_id, current_actor())}


def _name_partner(form, partners: dict) -> None:
    value = form.partner.data
    if value and str(value).isdigit():
        form.partner.choices = [("", _("Any")), (value, partners.get(int(value), f"#{value}"))]


@bp.post("/bulk")
def bulk_done():
    """Mark the selected rows (or every income matching the filter) done; then the queue."""
    bits = flow.base()
    back = url_for(".index") + (f"?{bits.filters.key}" if bits.filters.key else "")
    selection = _selection(bits)
    if not selection:
        return redirect_to(back)
    refused = required.refused(g.api, [income_id for income_id, _fp in selection], bits.settings)
    selection = [(income_id, fp) for income_id, fp in selection if income_id not in refused]
    result = bulk.mark_done(g.api, g.company_id, current_actor(), selection)
    result.failed.update(refused)
    for income_id in result.done + result.changed:
        prefetch.forget(g.api, income_id)
    _close_in_walk(result.done)
    _report(result)
    return redirect_to(back)


def _selection(bits) -> list:
    if request.form.get("scope") != "all":
        selection = bulk.parse_selection(request.form.getlist("ids"))
        if not selection:
            flash(_("Select the incomes to mark done first."), "info")
        return selection
    if bits.filters.params is None:
        return []
    rows, _lookups, capped = queue.scan(g.api, bits.filters.params, bits.filters.local,
                                        bits.context, cap=bulk.MAX_BULK)
    expected = request.form.get("expected", "")
    if capped or str(len(rows)) != expected:
        flash(_("The queue changed since you looked: %(now)s incomes match now, not "
                "%(then)s. Nothing was marked; check the list and try again.",
                now=len(rows), then=expected or "?") if not capped else
              _("More than %(max)s incomes match. Narrow the filter and try again.",
                max=bulk.MAX_BULK), "warning")
        return []
    return [(row["id"], compare.fingerprint(row)) for row in rows]


def _close_in_walk(income_ids: list[int]) -> None:
    current = walk.load(g.company_id)
    if current is None or not income_ids:
        return
    for income_id in income_ids:
        current.close(income_id)
    walk.save(g.company_id, current)


def _report(result: bulk.BulkResult) -> None:
    if result.done:
        flash(_("Marked done: %(num)s.", num=len(result.done)), "success")
    if result.changed:
        flash(_("Changed since you loaded the list, so left for review: #%(ids)s",
                ids=", #".join(map(str, result.changed))), "warning")
    for income_id, message in result.failed.items():
        flash(_("#%(id)s was not marked done: %(reason)s", id=income_id, reason=message),
              "error")
    if result.refused is not None:
        flash(_("Stopped at the first refusal: the accounting service does not let your token "
                "change incomes (#%(id)s was refused; a viewer, for example, cannot change "
                "records). Marked done before that: %(done)s. Not sent: %(left)s.",
                id=result.refused, done=len(result.done), left=len(result.not_sent)), "error")
