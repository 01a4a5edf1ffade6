"""Partner pages: the list, a new partner (once per form), a partner's own page with its form,
the partner card (open amounts, ageing, documents) and its statement export."""
from __future__ import annotations

from flask import flash, g, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import pgettext

from app.errors import lost_write_response
from app.exports import download, first_page_now
from app.forms.filters import arg_page
from app.numbers import company_today
from app.once import Recovery, create_once
from app.partners import flow, present
from app.partners.forms import PartnerForm, initial
from app.templating import redirect_to, render
from app.upstream import Page, RateLimited, Unavailable, ValidationError, catalog
from app.upstream import partners as partners_api
from app.upstream.errors import upstream_messages, upstream_text


def index():
    """Partners matching the search and role filter, one API page at a time."""
    query, role = request.args.get("q", "").strip(), request.args.get("role", "")
    number = arg_page(request.args)
    problems: list[str] = []
    try:
        page = flow.list_page(g.api, query, role, request.args.get("ordering", ""), number)
    except ValidationError as exc:
        page, problems = Page(items=[], count=0), upstream_messages(exc)
    return render("partners/index.html", "partners/_list.html", page=page, q=query, role=role,
                  page_number=number, page_size=flow.PAGE_SIZE, problems=problems)


def new():
    """The create form; a valid submit is sent once and lands on the new partner's page."""
    form = PartnerForm()
    if not form.is_submitted():
        return render_template("partners/new.html", form=form, existing=None)
    done, existing = _create(form) if form.validate() else (None, None)
    if done is not None:
        return done
    status = getattr(form, "lost_status", 400)
    return render_template("partners/new.html", form=form, existing=existing), status


def _create(form: PartnerForm) -> tuple:
    """(response, None) once created; (None, colliding partner or None) when refused."""
    try:
        return create_once(form, "partners.create",
                           lambda: partners_api.create(g.api, form.values()),
                           lambda created: url_for(".edit", partner_id=created["id"]),
                           lambda created: saved_message(created, form, _created),
                           _recovery(form)), None
    except ValidationError as exc:
        return None, show_refusal(form, exc)


def _recovery(form: PartnerForm) -> Recovery:
    """A lost create is found by the tax number, or by the name when there is none."""
    def url(partner_id: int | None) -> str | None:
        return url_for(".edit", partner_id=partner_id) if partner_id is not None else None

    return Recovery(lambda since, known: url(flow.find_created(g.api, form.values())),
                    lambda exc: url(flow.existing_id(exc)),
                    found=_("The accounting service did not confirm the request, but the partner "
                            "was created."))


def edit(partner_id: int):
    """A partner's page: its data in the form; a save sends only what changed."""
    record = partners_api.get(g.api, partner_id)
    form = PartnerForm(data=initial(record))
    form.stored = record
    if not form.is_submitted():
        return _edit_page(form, record)
    done, existing = _save(form, record) if form.validate() else (None, None)
    if done is not None:
        return done
    return _edit_page(form, record, existing), 400


def _edit_page(form: PartnerForm, record: dict, existing: dict | None = None,
               problem: str | None = None) -> str:
    """The partner's page; problem (the save got no answer) goes above the form, input kept."""
    if problem:
        form.form_errors.append(problem)
    return render_template("partners/edit.html", form=form, record=record, existing=existing)


def _save(form: PartnerForm, record: dict) -> tuple:
    """(response, None) when saved, unchanged or unanswered; (None, colliding partner) when
    refused."""
    here = url_for(".edit", partner_id=record["id"])
    body = form.changes()
    if not body:
        flash(_("Nothing was changed."), "info")
        return redirect_to(here), None
    try:
        saved = partners_api.update(g.api, record["id"], body)
    except ValidationError as exc:
        return None, show_refusal(form, exc)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _edit_page(form, record, problem=text), exc,
                                   reload_url=here), None
    flash(saved_message(saved, form, _saved), "success")
    return redirect_to(here), None


def _created(name: str) -> str:
    return _("The partner “%(name)s” was created.", name=name)


def _saved(name: str) -> str:
    return _("The partner “%(name)s” was saved.", name=name)


def saved_message(stored: dict, form: PartnerForm, sentence) -> str:
    """The success message; it says when the API stored the tax number differently."""
    message = sentence(stored.get("name") or form.name.data)
    sent, kept = form.values().get("tax_number"), stored.get("tax_number")
    if sent and kept and sent != kept:
        message += " " + _("The tax number was saved as %(tax_number)s.", tax_number=kept)
    return message


def show_refusal(form: PartnerForm, error: ValidationError) -> dict | None:
    """Put a refusal on the form; return the colliding partner when that was the reason."""
    refused = flow.refused_fields(error)
    if refused:
        for name in refused:
            form.add_error(name, _("Cannot be changed for this partner."))
        labels = ", ".join(str(form[n].label.text) if n in form else n for n in refused)
        form.form_errors.append(_(
            "This partner accepts changes only to its default bank account and its customer "
            "and vendor roles, so nothing was saved. Put these back to save the rest: "
            "%(fields)s.", fields=labels))
        form.form_errors.extend(upstream_text(m) for m in error.non_field_errors)
        return None
    form.place(error)
    partner_id = flow.existing_id(error)
    return flow.existing(g.api, partner_id) if partner_id is not None else None


def card(partner_id: int):
    """The partner card: open receivables and payables with their ageing, the documents."""
    found = flow.card(g.api, partner_id, arg_page(request.args), request.args.get("cursor"))
    partner = found["partner"]
    today, codes = company_today(), found["codes"]
    incomes = present.marked(found["income_page"].items, "income")
    expenses = present.marked(found["expense_page"].items, "expense")
    return render_template(
        "partners/card.html", partner=partner, today=today, buckets=present.BUCKETS,
        receivables=present.ageing(present.marked(found["incomes"], "income"), codes, today),
        payables=present.ageing(present.marked(found["expenses"], "expense"), codes, today),
        incomes=[present.document_row(r, codes, today) for r in incomes],
        expenses=[present.document_row(r, codes, today) for r in expenses],
        income_page=found["income_page"], page_number=arg_page(request.args),
        page_size=flow.CARD_PAGE_SIZE,
        next_cursor=found["expense_page"].next_cursor,
        prev_cursor=found["expense_page"].previous_cursor)


def statement(partner_id: int):
    """Every document of the partner as CSV or XLSX (?format=xlsx), streamed."""
    partner = partners_api.get(g.api, partner_id)
    pages = flow.statement_pages(g.api, partner, company_today())
    codes = catalog.names(g.api, "currencies", "code")
    return download(present.statement_header(), pages, present.statement_row, codes,
                    pgettext("file name", "partner-%(id)s-statement", id=partner_id))


def export():
    """The partner list of the current search, role and ordering as CSV or XLSX
    (?format=xlsx), every page (app/exports.py)."""
    query, role = request.args.get("q", "").strip(), request.args.get("role", "")
    try:
        pages = first_page_now(flow.list_pages(g.api, query, role,
                                               request.args.get("ordering", "")))
    except ValidationError:
        return index()
    return download(present.list_header(), pages, present.list_row, {},
                    pgettext("file name", "partners"))
