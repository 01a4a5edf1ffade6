"""The expense pages, request to response: the list with its bulk actions and CSV export; the
detail, its file served same-origin and excluding from accounting; editing; uploading files as
new expenses, sent once with refusals explained."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import partial

from flask import flash, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext, pgettext

from app import files
from app.bank.present import payment_history
from app.errors import lost_write_response, lost_write_text
from app.expenses import flow, forms, present
from app.exports import EXPORT_PAGE_SIZE, download, first_page_now
from app.files import document_of
from app.forms import settings_and_catalogs
from app.forms.filters import filter_args, list_tabs, place_upstream
from app.forms.registry import currency_code
from app.numbers import company_today
from app.once import (
    EXPIRED,
    ExpiredKey,
    LostAnswer,
    Recovery,
    Sent,
    rate_limited_message,
    repeat_response,
    send_once,
)
from app.store import idempotency
from app.templating import is_htmx, push_machine_url, redirect_to, render
from app.totals import expense_amounts, in_forints, list_totals, trusted
from app.upstream import Page, PermissionDenied, RateLimited, Unavailable, ValidationError, catalog
from app.upstream import expenses as upstream


def index():
    """Expenses filtered and paged as the URL says (one upstream call with a warm cache)."""
    form = forms.filter_form(request.args)
    params = forms.api_params(form, request.args)
    page, codes, problems, resync = _read(form, params)
    today = company_today().isoformat()
    context = {"form": form, "page": page, "codes": codes, "problems": problems,
               "overdue_tab": forms.is_overdue_tab(request.args),
               "form_page_size": (params or {}).get("page_size", 50),
               "tabs": list_tabs(forms.list_query, request.args),
               "totals": _totals(params, page, codes, problems, resync),
               "rows": present.list_rows(page.items, codes, page.lookups, today),
               "resync": resync, "full_reload_url": full_reload_url(), "filtered":
               form.is_filtered(), "next_cursor": page.next_cursor,
               "prev_cursor": page.previous_cursor,
               "export_url": forms.list_query(filter_args(request.args)).url(".export"),
               "fragment": is_htmx(), **bulk_context()}
    status = 400 if params is None or problems or form.errors or resync else 200
    response = make_response(render("expenses/index.html", "expenses/_list.html", **context),
                             status)
    return push_machine_url(response, forms.machine_args(form))


def _totals(params: dict | None, page: Page, codes: dict, problems: list, resync: bool):
    """The footer's totals of the whole filter (None when the filter was refused; its reason
    among problems when a page read for them held rows outside it)."""
    if params is None or problems or resync:
        return None
    first = not params.get("cursor") and params.get("page", 1) == 1
    return trusted(partial(list_totals, g.api, "expenses", params, codes, page.items,
                           first and not page.next), problems)


def _read(form, params: dict | None) -> tuple:
    """(page, currency codes, problems, resync needed); a refused query leaves the page empty."""
    if params is None:
        return Page(items=[]), {}, [], False
    try:
        return (*flow.list_page(g.api, params), [], False)
    except ValidationError as exc:
        if flow.needs_resync(exc, params):
            form.since.errors = [_("Too far back for the accounting service's list of changes: "
                                   "load the full list.")]
            return Page(items=[]), {}, [], True
        return Page(items=[]), {}, place_upstream(form, exc, forms.FIELD_OF), False


def export():
    """The current filter as CSV or XLSX (?format=xlsx), every page (app/exports.py)."""
    params = forms.read_params(request.args)
    if params is None:
        return index()
    params.update(cursor=None, page_size=EXPORT_PAGE_SIZE)
    try:
        pages = first_page_now(upstream.iter_pages(g.api, params))
    except ValidationError:
        return index()
    codes = catalog.names(g.api, "currencies", "code")
    return download(present.export_header(), pages, present.export_row, codes,
                    pgettext("file name", "expenses"))


def full_reload_url() -> str:
    """The list with the same filters but without “changed since”: the full reload."""
    args = {k: v for k, v in request.args.items() if k not in ("since", "tz", "cursor")}
    return url_for(".index", **args)


def detail(expense_id: int):
    """Everything the API says about one expense, its file shown inline where it can be."""
    expense, settings, catalogs = flow.load(g.api, expense_id)
    advanced = bool(settings.get("advanced_accounting"))
    sums = present.totals(expense)
    code = currency_code(expense.get("currency"), catalogs)
    return render_template(
        "expenses/detail.html", expense=expense, catalogs=catalogs, settings=settings,
        sections=present.sections(expense, catalogs, settings), sums=sums,
        huf_gross=in_forints(expense, code, expense_amounts),
        history=payment_history(expense, sums["gross_amount"], code, catalogs.get("accounts")),
        columns=present.assignment_columns(expense.get("assignments") or [], advanced),
        cell=present.cell, action_label=present.action_label,
        inline=files.inline_kind(expense), can_exclude=flow.can_exclude(expense),
        can_include=flow.can_include(expense),
        tag_names={t.get("id"): t.get("name") for t in catalogs.get("tags") or []})


def artifact(expense_id: int):
    """The expense's file, fetched through a fresh signed link and served from this origin."""
    record, content = files.fetch_file(partial(upstream.artifact, g.api, expense_id))
    return files.file_response(content, record.get("filename"), request.args.get("download") == "1")


def exclude(expense_id: int):
    """Confirm, then exclude the expense from accounting (an action, spec 3)."""
    return _exclusion(expense_id, True)


def include(expense_id: int):
    """Confirm, then take an excluded expense back into accounting (the flag set back)."""
    return _exclusion(expense_id, False)


def _exclusion(expense_id: int, excluded: bool):
    if request.method == "POST":
        return _set_excluded(expense_id, excluded)
    expense = upstream.get(g.api, expense_id)
    allowed = flow.can_exclude(expense) if excluded else flow.can_include(expense)
    return render_template("expenses/exclude.html", expense=expense, excluding=excluded,
                           allowed=allowed)


def _set_excluded(expense_id: int, excluded: bool):
    """Send the action; a refusal (e.g. already excluded) becomes a message on the page."""
    try:
        upstream.update(g.api, expense_id, {flow.EXCLUDED: excluded})
    except (Unavailable, RateLimited) as exc:
        flash(lost_write_text(exc), "warning")
    except ValidationError as exc:
        reason = flow.refusal_text(exc)
        flash(_("The expense was not excluded: %(reason)s", reason=reason) if excluded else
              _("The expense was not taken back into accounting: %(reason)s", reason=reason),
              "error")
    else:
        flash(_("The expense is now excluded from accounting.") if excluded else
              _("The expense is in accounting again."), "success")
    return redirect_to(url_for(".detail", expense_id=expense_id))


def edit(expense_id: int):
    """Show the form; on save send only what changed, or show every error on its field."""
    settings, catalogs = settings_and_catalogs(g.api, flow.FORM_CATALOGS)
    expense = upstream.get(g.api, expense_id)
    form = forms.edit_form(expense, settings, catalogs)
    if request.method == "POST" and not form.table_op() and form.check():
        body = form.changes()
        if not form.conflicts and not forms.refuses_empty_list(form, body):
            done = _save(form, expense, body)
            if done is not None:
                return done
    status = 400 if request.method == "POST" and form.has_errors() else 200
    return _edit_page(form, expense), status


def _edit_page(form, expense: dict, problem: str | None = None) -> str:
    """The edit page; problem (the save got no answer) goes above the form, input kept."""
    if problem:
        form.upstream_failed(problem)
    return render_template("expenses/edit.html", form=form, expense=expense,
                           lock=forms.lock_note(form, expense),
                           frozen=forms.frozen_ledger(expense), document=document_of({
                               "has_artifact": expense.get("has_artifact"),
                               "extension": expense.get("artifact_extension"),
                               "filename": expense.get("artifact_filename")}))


def _save(form, expense: dict, body: dict):
    """PATCH and go back to the detail; None (form keeps the input) when the API refuses."""
    detail = url_for(".detail", expense_id=expense["id"])
    if not body:
        flash(_("Nothing was changed."), "info")
        return redirect_to(detail)
    try:
        upstream.update(g.api, expense["id"], body)
    except ValidationError as exc:
        form.apply_upstream(exc)
        return None
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _edit_page(form, expense, text), exc, _(
            "The accounting service did not confirm the request. Your changes to the expense may "
            "already be saved: open it in a new tab to check, then save again if needed."))
    flash(_("The expense was saved."), "success")
    return redirect_to(detail)


def new():
    """The upload form; a valid submit creates one expense per file, once."""
    key = request.form.get("form_key") or idempotency.new_key()
    if request.method == "GET":
        return _upload_page(key, files.Outcome())
    found = files.read_files(request.files.getlist("files"))
    if found == []:
        return _upload_page(key, files.Outcome(), [_("Choose at least one file.")])
    if isinstance(found, files.Outcome):
        return _upload_page(key, found)
    # Before the key: a lost send's recovery looks for a file that was sent, never a held one.
    sending, seen = (found, files.Outcome()) if request.form.get("again") else \
        files.hold_back_seen(found)
    try:
        done = _submit(key, sending, seen, found)
    except LostAnswer as exc:
        # Same key: a resend looks for what the lost one may have made before sending.
        return _upload_page(key, seen, [str(exc)], 503)
    except RateLimited as exc:
        return _upload_page(key, seen, [rate_limited_message(exc)], 429)
    # A form whose key was used gets a fresh one: the next submit is a new files.
    return _upload_page(idempotency.new_key(), done) if isinstance(done, files.Outcome) else done


def _upload_page(key: str, outcome, problems: list | tuple = (), status: int | None = None):
    status = status or (400 if problems or outcome.refused else 200)
    return render("expenses/new.html", "expenses/_upload.html", form_key=key, outcome=outcome,
                  problems=problems, max_files=files.MAX_FILES), status


def _submit(key: str, uploads: list, seen, chosen: list):
    """Send once; a repeat lands where the first did. An Outcome for the page, or a response
    (seen: the files the duplicate check held back, said on the page). A lost send is looked
    for among the files it sent; a resend that holds every file back (a lost send made them)
    looks among those chosen."""
    try:
        return send_once(key, files.PURPOSE, partial(_send_files, uploads, seen),
                         repeat=_earlier, recover=_recovery(uploads or chosen))
    except ExpiredKey:
        return files.Outcome(refused=[("", str(EXPIRED))])


def _recovery(uploads: list) -> Recovery:
    """A lost upload is found by its first file's name among expenses created since the send.

    Only the first file's answer reaches here lost (later ones are read back as they fail), so
    the files after it were not sent.
    """
    first = uploads[0]

    def find(since: datetime, known) -> str | None:
        found = files.find_created(first, since - files.CLOCK_SLACK)
        return url_for(".detail", expense_id=found["id"]) if found else None

    found = _("The accounting service did not confirm the request, but %(filename)s was uploaded "
              "as a new expense.", filename=first.filename)
    if len(uploads) > 1:
        found += " " + _("The other files were not sent: upload them again.")
    return Recovery(find, found=found, not_created=_(
        "The accounting service did not confirm the request, and no expense was created. It is "
        "safe to send the files again."), unconfirmed=_(
        "The accounting service did not confirm the request, and it is not yet known whether the "
        "files were uploaded. Choose the same files and send them again in a moment: Bookdesk "
        "checks first and does not upload them twice."))


def _send_files(uploads: list, seen) -> Sent:
    """Send the files (none when every one was held back); the key remembers what was
    created, or is freed when nothing was."""
    outcome = replace(files.send_all(uploads) if uploads else files.Outcome(), held=seen.held,
                      unchecked=seen.unchecked)
    url = _target(outcome.created) if outcome.created else None
    if outcome.refused or outcome.held or outcome.unchecked or not outcome.created:
        return Sent(url, response=outcome)
    return Sent(url, ngettext("%(num)s file was uploaded as a new expense.",
                              "%(num)s files were uploaded as new expenses.",
                              len(outcome.created)))


def _target(created: list[dict]) -> str:
    if len(created) == 1:
        return url_for(".detail", expense_id=created[0]["id"])
    return url_for(".index")


def _earlier(claim):
    return repeat_response(claim, _("These files were already sent; here is what they created."),
                           pending=lambda: (render("expenses/pending.html",
                                                   "expenses/_pending.html"), 409))


def bulk():
    """Apply the chosen action to the ticked expenses in one upstream call; back to the list."""
    back = forms.list_query(filter_args(request.args)).url(".index")
    action, ids = request.form.get("action"), flow.selected_ids(request.form.getlist("ids"))
    if action not in upstream.BULK_ACTIONS or not ids:
        flash(_("Tick the expenses and choose an action first."), "info")
        return redirect_to(back)
    try:
        return send_once(request.form.get("form_key") or "", flow.BULK_PURPOSE,
                         partial(_send_bulk, action, ids, back), repeat=_repeat)
    except ExpiredKey:
        flash(_("This form has expired. Reload the page and try again."), "warning")
    except PermissionDenied:
        flow.remember_read_only()
        flash(str(flow.READ_ONLY), "error")
    except (RateLimited, Unavailable) as exc:
        flash(_bulk_unanswered(exc), "warning")
    return redirect_to(back)


def _bulk_unanswered(exc) -> str:
    """A rate limit sent nothing; a lost answer may hide an applied action."""
    return lost_write_text(exc, _(
        "The accounting service did not confirm the request, so the action may or may not "
        "have been applied to the ticked expenses: check them in the list before sending it "
        "again."))


def _send_bulk(action: str, ids: list[int], back: str) -> Sent:
    answer = upstream.bulk_action(g.api, action, ids)
    names = flow.filing_numbers(g.api, flow.failed_of(answer))
    text, failed = flow.summary(action, answer, names)
    flash(text, "warning" if failed else "success")
    return Sent(back, response=redirect_to(back))


def _repeat(claim: idempotency.Claim):
    return repeat_response(claim, _("This form was already sent; nothing was sent twice."))


def bulk_context() -> dict:
    """What the list's bulk form needs: its key, the actions and whether they are disabled."""
    return {"bulk_key": idempotency.new_key(), "bulk_actions": _labels(),
            "bulk_read_only": flow.READ_ONLY if flow.read_only() else None,
            "bulk_url": forms.list_query(filter_args(request.args)).url(".bulk")}


def _labels() -> list[tuple[str, str]]:
    return [("approve", _("Approve")), ("unapprove", _("Unapprove")), ("check", _("Check")),
            ("uncheck", _("Uncheck"))]

