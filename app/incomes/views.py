"""The income pages, request to response: the list, its CSV export and the partner search behind
every partner picker; the detail, its file and cancelling; editing and the live totals; a new
accounting document (or storno), created once.

The live totals (/totals) serve every form with amounts: the income (new and edit) and expense
forms post themselves there (htmx, on input) and get the answer of app.forms.totals_page.live,
VAT and gross computed and disagreements flagged, as an HX-Trigger event that
static/js/forms.js applies to the inputs. Nothing is sent upstream; the catalogues come from the
cache.
"""
from __future__ import annotations

from functools import partial

from flask import flash, g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import pgettext
from markupsafe import Markup

from app.bank.present import payment_history
from app.errors import lost_write_response
from app.exports import EXPORT_PAGE_SIZE, download
from app.files import document_of, fetch_file, file_response
from app.forms import build_edit_form, build_new_form, catalogs_of, settings_and_catalogs
from app.forms.filters import arg_id, filter_args, list_tabs
from app.forms.registry import currency_code
from app.forms.totals import form_rules
from app.forms.totals_page import live
from app.i18n import search_text
from app.incomes import flow, present
from app.incomes.forms import api_params, filter_form, is_overdue_tab, list_query, read_params
from app.numbers import company_today, format_date, format_number
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
from app.templating import is_htmx, redirect_to, render, trigger
from app.totals import in_forints, income_amounts, list_totals, trusted
from app.upstream import Page, RateLimited, Unavailable, ValidationError, catalog
from app.upstream import incomes as upstream
from app.upstream import parallel as page_budget
from app.upstream import partners as partner_api
from app.upstream.errors import upstream_messages

TOTALS_CATALOGS = ("currencies", "vat_categories")


def index():
    """Incomes filtered, sorted and paged as the URL says (one upstream call, warm cache)."""
    form = filter_form(request.args)
    params = api_params(form, request.args)
    page, codes, problems = _list_page(params)
    if page.lookups.get("partners") and form.partner.data:
        form = filter_form(request.args, page.lookups["partners"].get(int(form.partner.data)))
    context = _list_context(form, params, page, codes, problems)
    status = 400 if params is None or problems else 200
    return render("incomes/index.html", "incomes/_list.html", **context), status


def _list_page(params: dict | None) -> tuple[Page, dict, list]:
    """(page, currency codes, problems): the API's page of the filter, or an empty page and
    what the API said when it refused the filter (no call for a filter already refused)."""
    empty = Page(items=[], count=0)
    if params is None:
        return empty, {}, []
    try:
        page, codes = flow.list_page(g.api, params)
    except ValidationError as exc:
        return empty, {}, upstream_messages(exc) or [
            _("The accounting service did not accept the filter.")]
    except flow.TooManyToSift as exc:
        return empty, {}, [_("More than %(limit)s incomes match: too many to leave out the "
                             "cancelled ones. Narrow the dates or another filter.",
                             limit=format_number(exc.args[0]))]
    return page, codes, []


def _list_context(form, params: dict | None, page: Page, codes: dict, problems: list) -> dict:
    """What the list page and its fragment show."""
    today = company_today().isoformat()
    rows = present.list_rows(page.items, codes, page.lookups.get("tags", {}), today,
                             flow.reversed_numbers(g.api, page.items))
    return {"form": form, "page": page, "rows": rows, "codes": codes, "problems": problems,
            "params": params or {}, "filtered": form.is_filtered(), "today": today,
            "overdue_tab": is_overdue_tab(request.args),
            "tabs": list_tabs(list_query, request.args),
            "totals": _totals(params, page, codes, problems),
            "export_url": list_query(filter_args(request.args)).url(".export"),
            "fragment": is_htmx()}


def _totals(params: dict | None, page: Page, codes: dict, problems: list):
    """The footer's totals of the whole filter (None when the filter was refused)."""
    if params is None or problems:
        return None
    if page.whole is not None:  # the filter was read through to page it: nothing to read
        return list_totals(g.api, "incomes", params, codes, page.whole, complete=True)
    complete = params.get("page", 1) == 1 and page.next is None
    return trusted(partial(list_totals, g.api, "incomes", params, codes, page.items, complete),
                   problems)


def export():
    """The current filter as CSV or XLSX (?format=xlsx), every page (app/exports.py)."""
    params = read_params(request.args)
    if params is None:
        return index()
    params.update(page=None, page_size=EXPORT_PAGE_SIZE)
    try:
        pages = flow.export_pages(g.api, params)
    except flow.TooManyToSift:
        return index()
    codes = catalog.names(g.api, "currencies", "code")
    return download(present.export_header(), pages, present.export_row, codes,
                    pgettext("file name", "incomes"))


def partner_options():
    """<option>s of partners matching ?partner_q= (the partner pickers refill their select)."""
    text = search_text(request.args.get("partner_q"))
    partners = partner_api.search(g.api, text) if len(text) >= 2 else []
    return render_template("incomes/_partner_options.html", partners=partners, text=text)


def detail(income_id: int):
    """Everything the API says about one income, with links between storno and original."""
    income, settings, catalogs = flow.load(income_id)
    found = flow.extras(income, named=True)
    pending = flow.storno_pending(found, income)
    code = currency_code(income.get("currency"), catalogs)
    return render_template(
        "incomes/detail.html", income=income, settings=settings, catalogs=catalogs,
        sections=present.sections(income, catalogs, settings),
        huf_gross=in_forints(income, code, income_amounts),
        originals=found.get("originals"),
        columns=present.assignment_columns(income.get("assignments") or []),
        cell=present.cell, can_storno=present.can_storno(income) and not pending,
        storno_pending=pending,
        history=payment_history(income, income.get("gross_amount"), code,
                                catalogs.get("accounts")),
        **flow.cancel_context(found, income))


def artifact(income_id: int):
    """The income's file, fetched through a fresh signed link and served from this origin."""
    record, content = fetch_file(partial(upstream.artifact, g.api, income_id))
    return file_response(content, record.get("filename"), request.args.get("download") == "1")


def viewer(income_id: int):
    """The document panel beside the edit form (its own request, so the form never waits)."""
    document = document_of(upstream.artifact(g.api, income_id))
    number = f"#{income_id}"  # outside _(): message extraction warns of an f-string inside it
    return render_template("forms/_document_view.html", document=document,
                           src=url_for("review.document", income_id=income_id),
                           title=_("The document of %(number)s", number=number))


def cancel(income_id: int):
    """Confirm, then set is_cancelled (payments are recalculated by the API)."""
    income, settings, _catalogs = flow.load(income_id)
    state = flow.state_of(income)
    if state == "reversed":
        # Revoking would bring back a document a storno has reversed; the storno still stands.
        flash(_("This document was reversed by a storno document, so its cancellation cannot "
                "be revoked. Nothing was changed."), "warning")
        return redirect_to(url_for(".detail", income_id=income_id))
    if not flow.can_cancel(income, state):
        flash(_("This document cannot be cancelled or restored here: only unprocessed "
                "accounting documents can."), "warning")
        return redirect_to(url_for(".detail", income_id=income_id))
    target = not income.get("is_cancelled")
    if request.method == "POST":
        return _set_cancelled(income, target, settings)
    return render_template("incomes/cancel.html", income=income, target=target,
                           reversed_original=_reversed_original(income, target))


def _reversed_original(income: dict, target: bool) -> str | None:
    """The number of the cancelled document a storno about to be cancelled reverses, which
    stays cancelled; None for any other document (or a storno reversing nothing)."""
    number = income.get("referred_invoice_number")
    if not (target and present.is_storno(income) and number):
        return None
    found = flow.find_by_number(g.api, number)
    return number if any(item.get("is_cancelled") for item in found) else None


def _set_cancelled(income: dict, target: bool, settings: dict):
    if (request.form.get("is_cancelled") == "1") != target:
        # Sent twice (an earlier answer lost), or someone else got there first.
        flash(_("The document was already cancelled.") if not target else
              _("The cancellation was already revoked."), "info")
        return redirect_to(url_for(".detail", income_id=income["id"]))
    try:
        upstream.update(g.api, income["id"], {"is_cancelled": target},
                        flow.expansions(settings))
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(
            lambda text: render_template("incomes/cancel.html", income=income, target=target,
                                         problem=text), exc, _lost_cancel(target),
            reload_url=url_for(".detail", income_id=income["id"]))
    except ValidationError as exc:
        flash(" ".join(upstream_messages(exc)) or _("The accounting service refused the change."),
              "error")
    else:
        flash(_("The document is now cancelled; its payments were recalculated.") if target else
              _("The cancellation was revoked; its payments were recalculated."), "success")
    return redirect_to(url_for(".detail", income_id=income["id"]))


def _lost_cancel(target: bool) -> str:
    """What to say when the cancel (or revoke) got no answer: it may have happened."""
    if target:
        return _("The accounting service did not confirm the request. The document may already be "
                 "cancelled: open it to check before confirming again.")
    return _("The accounting service did not confirm the request. The cancellation may already be "
             "revoked: open the document to check before confirming again.")


def edit_form(income: dict, settings: dict, catalogs: dict):
    """The income's edit form (partner search through this area's endpoint)."""
    return build_edit_form(income, catalogs, company=settings,
                           search_url=url_for(".partner_options"), totals_url=url_for(".totals"))


def edit(income_id: int):
    """Show the form; on save send only what changed, or show every error on its field."""
    found = page_budget.read(flow.page_reads(g.api, income_id, flow.EDIT_CATALOGS))
    settings, income = found["record"]
    catalogs = catalogs_of(found, flow.EDIT_CATALOGS)
    form = edit_form(income, settings, catalogs)
    if request.method == "POST" and not form.table_op() and form.check():
        body = form.changes()
        lines = flow.stored_items_problems(income, body, form_rules(form))
        if not form.conflicts and _agrees(form, lines):
            done = _save(form, income, body, settings)
            if done is not None:
                return done
    status = form.status() if request.method == "POST" else 200
    return _page(form, income, settings), status


def _page(form, income: dict, settings: dict, problem: str | None = None) -> str:
    """The edit page; problem (the save got no answer) goes above the form, input kept."""
    if problem:
        form.upstream_failed(problem)
    return render_template("incomes/edit.html", form=form, income=income, settings=settings,
                           code=currency_code(income.get("currency"), form.layout.catalogs),
                           **flow.cancel_context(flow.extras(income, originals=False), income))


def _save(form, income: dict, body: dict, settings: dict):
    """PATCH and go back to the detail; None (form keeps the input) when the API refuses."""
    detail = url_for(".detail", income_id=income["id"])
    if not body:
        flash(_("Nothing was changed."), "info")
        return redirect_to(detail)
    try:
        saved = upstream.update(g.api, income["id"], body, flow.expansions(settings))
    except ValidationError as exc:
        form.apply_upstream(exc)
        return None
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _page(form, income, settings, text), exc, _(
            "The accounting service did not confirm the request. Your changes may or may not have "
            "been saved: open the income in a new tab to check before saving again."))
    flash(_("The income was saved."), "success")
    _note_rounding(body, saved or {})
    return redirect_to(detail)


def _note_rounding(body: dict, saved: dict) -> None:
    """The API moves a VAT period start to the period's first day: say so when it did."""
    sent, stored = body.get("vat_period_started_at"), saved.get("vat_period_started_at")
    if sent and stored and sent != stored:
        flash(_("The VAT period start was set to the first day of the period: %(day)s.",
                day=format_date(stored)), "info")


def totals():
    """Computed VAT / gross and field messages for the posted form (no body; HX-Trigger)."""
    catalogs = catalog.get_many(g.api, TOTALS_CATALOGS)
    response = make_response("", 200)
    trigger(response, "totals", live(request.form, catalogs))
    return response


def _form(settings: dict, catalogs: dict, initial: dict):
    return build_new_form(catalogs, initial=initial, company=settings,
                          fields=flow.new_fields(settings),
                          item_fields=flow.item_fields(),
                          search_url=url_for(".partner_options"),
                          totals_url=url_for(".totals"))


def _initial(settings: dict, catalogs: dict) -> tuple[dict, dict | None]:
    storno_of = arg_id(request.args, "storno_of")
    if storno_of is None:
        return flow.defaults(settings, catalogs), None
    original = flow.get_income(g.api, storno_of, settings)
    return flow.storno_initial(original, settings, catalogs), original


def new():
    """The create form; a valid submit is sent once and lands on the new document."""
    settings, catalogs = settings_and_catalogs(g.api, flow.FORM_CATALOGS)
    initial, original = _initial(settings, catalogs)
    form = _form(settings, catalogs, initial)
    key = request.form.get("form_key") or idempotency.new_key()
    image_errors: list[str] = []
    if request.method == "GET" and original is not None:
        _reversed_twice(form, original.get("invoice_number"))
    if request.method == "POST" and not form.table_op():
        done, image_errors = _create_checked(form, key)
        if done is not None:
            return done
    status = 200
    if request.method == "POST":
        status = 400 if image_errors and form.status() == 200 else form.status()
        status = 429 if getattr(form, "rate_limited", False) else status
    return render_template("incomes/new.html", form=form, form_key=key, original=original,
                           image_errors=image_errors, settings=settings), status


def _create_checked(form, key: str) -> tuple:
    """Check the submitted form and create the document once it passes: (the response, or
    None when the form comes back; the image's errors)."""
    image, image_errors = flow.read_image(request.files.get("invoice_image"))
    checked = form.check()  # the referred number is judged beside every other field
    twice = _reversed_twice(form, form.values.get("referred_invoice_number"))
    if checked and not twice and not image_errors and _agrees(form, flow.items_problems(form)):
        return _submit(form, key, image), image_errors
    return None, image_errors


def _reversed_twice(form, number: str | None) -> bool:
    """True, with the message on the referred number, when a live storno already reverses
    that document: a second one would reverse it twice."""
    if not flow.reversed_already(g.api, number):
        return False
    form.add_error("referred_invoice_number", _(
        "A storno already reverses %(number)s, so a second one would reverse it twice. To "
        "replace that storno, cancel it first.", number=number))
    return True


def _agrees(form, problems: dict[str, str]) -> bool:
    """Whether the line items agree with the document's totals; else messages on the totals."""
    for name, message in problems.items():
        form.add_error(name, message)
    return not problems


def _submit(form, key: str, image):
    """Create once; a repeat lands where the first did, a refusal stays on the form."""
    try:
        return send_once(key, flow.PURPOSE, partial(_create, form, image), repeat=_earlier,
                         recover=_recovery(form))
    except ExpiredKey:
        form.form_errors.append(str(EXPIRED))
    except ValidationError as exc:
        _show_refusal(form, exc)
    except LostAnswer as exc:
        form.upstream_failed(str(exc))
    except RateLimited as exc:
        form.upstream_failed(rate_limited_message(exc))
        form.rate_limited = True
    return None


def _recovery(form) -> Recovery:
    """A lost create is found by its invoice number (unique per company, matched exactly)."""
    number = flow.payload(form).get("invoice_number") or ""

    def find(since, known) -> str | None:
        found = flow.find_by_number(g.api, number) if number else []
        return url_for(".detail", income_id=found[0]["id"]) if found else None

    def existing(exc: ValidationError) -> str | None:
        income_id = exc.extra.get("existing_income_id")
        return url_for(".detail", income_id=income_id) if income_id else None

    return Recovery(find, existing, found=_(
        "The accounting service did not confirm the request, but the accounting document was "
        "created."),
        not_created=_("The accounting service did not confirm the request, and the document was "
                      "not created. It is safe to send the form again."),
        unconfirmed=_("The accounting service did not confirm the request, and it is not yet known "
                      "whether the document was created. Send the form again in a moment: "
                      "Bookdesk checks first, and a second copy is refused by its invoice "
                      "number."))


def _create(form, image) -> Sent:
    created = flow.send(flow.payload(form), image)
    return Sent(url_for(".detail", income_id=created["id"], created=1),
                _("The accounting document %(number)s was created.",
                  number=created.get("invoice_number")))


def _earlier(claim):
    return repeat_response(claim, _("This form was already sent; here is the document it "
                                    "created."),
                           pending=lambda: (render_template("incomes/pending.html"), 409))


def _show_refusal(form, exc: ValidationError) -> None:
    form.apply_upstream(exc)
    existing = exc.extra.get("existing_income_id")
    if existing:
        link = Markup('{} <a href="{}">{}</a>').format(
            _("An income with this invoice number already exists."),
            url_for(".detail", income_id=existing), _("Open it"))
        if "invoice_number" in form:
            form["invoice_number"].errors = [link]

