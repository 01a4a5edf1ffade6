"""An expense's page, its file served same-origin, and excluding it from accounting."""
from __future__ import annotations

from flask import abort, flash, g, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import gettext as translate

from app.expenses import bp, present, upstream
from app.expenses.files import file_response, inline_kind
from app.expenses.labels import action_label
from app.templating import redirect_to
from app.upstream import ValidationError

EXCLUDED = "excluded_from_accounting"


@bp.get("/<int:expense_id>")
def detail(expense_id: int):
    """Everything the API says about one expense, its file shown inline where it can be."""
    settings, catalogs = upstream.settings_and_catalogs(g.api)
    expense = upstream.get_expense(g.api, expense_id)
    advanced = bool(settings.get("advanced_accounting"))
    return render_template(
        "expenses/detail.html", expense=expense, catalogs=catalogs, settings=settings,
        sections=present.sections(expense, catalogs, settings), sums=present.totals(expense),
        columns=present.assignment_columns(expense.get("assignments") or [], advanced),
        references=present.REFERENCES, cell=present.cell, action_label=action_label,
        inline=inline_kind(expense), can_exclude=can_exclude(expense),
        tag_names={t.get("id"): t.get("name") for t in catalogs.get("tags") or []})


@bp.get("/<int:expense_id>/file")
def artifact(expense_id: int):
    """The expense's file, fetched through a fresh signed link and served from this origin."""
    record = upstream.artifact(g.api, expense_id)
    if record is None or not record.get("url"):
        abort(404)
    content, _type = g.api.download(record["url"])
    return file_response(content, record.get("filename"), request.args.get("download") == "1")


@bp.route("/<int:expense_id>/exclude", methods=["GET", "POST"])
def exclude(expense_id: int):
    """Confirm, then exclude the expense from accounting (an action, spec 3)."""
    if request.method == "POST":
        return _exclude(expense_id)
    expense = upstream.get_expense(g.api, expense_id)
    return render_template("expenses/exclude.html", expense=expense,
                           can_exclude=can_exclude(expense))


def can_exclude(expense: dict) -> bool:
    """The action is offered while the API lets the flag change and it is not set yet."""
    return EXCLUDED in (expense.get("editable_fields") or []) and not expense.get(EXCLUDED)


def _exclude(expense_id: int):
    """Send the action; a refusal (e.g. already excluded) becomes a message on the page."""
    try:
        upstream.update(g.api, expense_id, {EXCLUDED: True})
    except ValidationError as exc:
        flash(_("The expense was not excluded: %(reason)s", reason=refusal_text(exc)), "error")
    else:
        flash(_("The expense is now excluded from accounting."), "success")
    return redirect_to(url_for(".detail", expense_id=expense_id))


def refusal_text(error: ValidationError) -> str:
    """The API's own words for a refused change (translated where Bookdesk knows them)."""
    messages = error.field_errors.get(EXCLUDED) or error.messages()
    return " ".join(translate(m) for m in messages) or _(
        "The accounting service refused the change.")
