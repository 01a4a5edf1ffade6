"""Editing an expense: the form comes from its editable_fields; the PATCH carries the changes."""
from __future__ import annotations

from flask import flash, g, render_template, request, url_for
from flask_babel import gettext as _

from app.expenses import bp, editing, upstream
from app.htmx import redirect_to
from app.upstream import ValidationError


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
    return render_template("expenses/edit.html", form=form, expense=expense,
                           lock=editing.lock_note(form, expense),
                           frozen=editing.frozen_ledger(expense)), status


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
    flash(_("The expense was saved."), "success")
    return redirect_to(detail)
