"""Editing an income: the form comes from its editable_fields; the PATCH carries the changes.

Also the live totals of every form with amounts (/totals): the income (new and edit) and expense
forms post themselves there (htmx, on input) and get the answer of app.forms.totals_page.live,
VAT and gross computed and disagreements flagged, as an HX-Trigger event that
static/js/forms.js applies to the inputs. Nothing is sent upstream; the catalogues come from the
cache.
"""
from __future__ import annotations

from flask import flash, g, make_response, render_template, request, url_for
from flask_babel import gettext as _

from app.errors import lost_write_response
from app.forms import build_edit_form
from app.forms.totals_page import live
from app.incomes import bp, upstream
from app.incomes.views_detail import cancel_context, extras
from app.numbers import format_date
from app.templating import redirect_to, trigger
from app.upstream import RateLimited, Unavailable, ValidationError, catalog
from app.upstream import parallel as page_budget

TOTALS_CATALOGS = ("currencies", "vat_categories")


def edit_form(income: dict, settings: dict, catalogs: dict):
    """The income's edit form (partner search through this area's endpoint)."""
    return build_edit_form(income, catalogs, company=settings,
                           search_url=url_for(".partner_options"), totals_url=url_for(".totals"))


@bp.route("/<int:income_id>/edit", methods=["GET", "POST"])
def edit(income_id: int):
    """Show the form; on save send only what changed, or show every error on its field."""
    found = page_budget.read(upstream.page_reads(g.api, income_id, upstream.FORM_CATALOGS))
    settings, income = found["record"]
    catalogs = upstream.catalogs_of(found, upstream.FORM_CATALOGS)
    form = edit_form(income, settings, catalogs)
    if request.method == "POST" and not form.table_op() and form.check():
        body = form.changes()
        if not form.conflicts:
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
                           **cancel_context(extras(income, originals=False), income))


def _save(form, income: dict, body: dict, settings: dict):
    """PATCH and go back to the detail; None (form keeps the input) when the API refuses."""
    detail = url_for(".detail", income_id=income["id"])
    if not body:
        flash(_("Nothing was changed."), "info")
        return redirect_to(detail)
    try:
        saved = upstream.update(g.api, income["id"], body, settings)
    except ValidationError as exc:
        form.apply_upstream(exc)
        return None
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _page(form, income, settings, text), exc, _(
            "The accounting service did not answer in time. Your changes may or may not have "
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


@bp.post("/totals")
def totals():
    """Computed VAT / gross and field messages for the posted form (no body; HX-Trigger)."""
    catalogs = catalog.get_many(g.api, TOTALS_CATALOGS)
    response = make_response("", 200)
    trigger(response, "totals", live(request.form, catalogs))
    return response
