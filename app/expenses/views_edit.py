"""Editing an expense: the form comes from its editable_fields; the PATCH carries the changes."""
from __future__ import annotations

from flask import flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.errors import lost_write_response
from app.expenses import bp, editing, upstream
from app.templating import redirect_to
from app.upstream import RateLimited, Unavailable, ValidationError


@bp.route("/<int:expense_id>/edit", methods=["GET", "POST"])
def edit(expense_id: int):
    """Show the form; on save send only what changed, or show every error on its field."""
    settings, catalogs = upstream.settings_and_catalogs(g.api, upstream.FORM_CATALOGS)
    expense = upstream.get_expense(g.api, expense_id)
    form = editing.edit_form(expense, settings, catalogs)
    if request.method == "POST" and not form.table_op() and form.check():
        body = form.changes()
        if not form.conflicts and not editing.refuses_empty_list(form, body):
            done = _save(form, expense, body)
            if done is not None:
                return done
    status = 400 if request.method == "POST" and form.has_errors() else 200
    return _page(form, expense), status


def _page(form, expense: dict, problem: str | None = None) -> str:
    """The edit page; problem (the save got no answer) goes above the form, input kept."""
    if problem:
        form.upstream_failed(problem)
    return render_template("expenses/edit.html", form=form, expense=expense,
                           lock=editing.lock_note(form, expense),
                           frozen=editing.frozen_ledger(expense))


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
        return lost_write_response(lambda text: _page(form, expense, text), exc, _(
            "The accounting service did not answer. Your changes to the expense may already be "
            "saved: open it in a new tab to check, then save again if needed."))
    flash(_("The expense was saved."), "success")
    return redirect_to(detail)
