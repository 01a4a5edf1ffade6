"""An income's page, its file download, and cancelling (or un-cancelling) a document."""
from __future__ import annotations

from functools import partial

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.errors import lost_write_response
from app.incomes import bp, present, upstream
from app.incomes.labels import can_storno, cancel_state, is_storno
from app.templating import redirect_to
from app.upstream import RateLimited, Unavailable, ValidationError
from app.upstream import parallel as page_budget


def load(income_id: int, names=upstream.DETAIL_CATALOGS) -> tuple[dict, dict, dict]:
    """(income, settings, catalogs) read side by side; catalogues late by the deadline: {}."""
    found = page_budget.read(upstream.page_reads(g.api, income_id, names), optional=names)
    settings, income = found["record"]
    return income, settings, upstream.catalogs_of(found, names)


def state_of(income: dict) -> str | None:
    """How the income is cancelled now: 'reversed' (by a storno), 'cancelled', or None."""
    return cancel_state(income, upstream.reversed_numbers(g.api, [income]))


def can_cancel(income: dict, state: str | None) -> bool:
    """Cancel or revoke here: only where the API allows it, and never reviving a reversal."""
    return "is_cancelled" in (income.get("editable_fields") or []) and state != "reversed"


def extras(income: dict, originals: bool = True) -> dict:
    """The page's secondary reads side by side within its deadline: stornos naming the income
    and, for a storno, its originals; each is left out when late. Only reads that are needed
    are made (a late one is one that was needed)."""
    tasks = {}
    if upstream.cancelled_numbers([income]):
        tasks["stornos"] = partial(upstream.reversed_numbers, g.api, [income])
    if originals and is_storno(income) and income.get("referred_invoice_number"):
        tasks["originals"] = partial(upstream.find_by_number, g.api,
                                     income["referred_invoice_number"])
    found = page_budget.read(tasks, optional=tasks)
    if "stornos" not in tasks:
        found["stornos"] = set()
    return found


def cancel_context(found: dict, income: dict) -> dict:
    """cancel_state and can_cancel for a page; no cancel button when the stornos were late."""
    if "stornos" not in found:
        return {"cancel_state": cancel_state(income, set()), "can_cancel": False}
    state = cancel_state(income, found["stornos"])
    return {"cancel_state": state, "can_cancel": can_cancel(income, state)}


@bp.get("/<int:income_id>")
def detail(income_id: int):
    """Everything the API says about one income, with links between storno and original."""
    income, settings, catalogs = load(income_id)
    found = extras(income)
    return render_template(
        "incomes/detail.html", income=income, settings=settings, catalogs=catalogs,
        sections=present.sections(income, catalogs, settings),
        originals=found.get("originals"),
        columns=present.assignment_columns(income.get("assignments") or []),
        cell=present.cell, can_storno=can_storno(income), **cancel_context(found, income))


@bp.get("/<int:income_id>/file")
def artifact(income_id: int):
    """Send the browser to a fresh signed download link of the income's file."""
    record = upstream.artifact(g.api, income_id)
    if record is None or not record.get("url"):
        abort(404)
    return redirect(record["url"], code=303)


@bp.route("/<int:income_id>/cancel", methods=["GET", "POST"])
def cancel(income_id: int):
    """Confirm, then set is_cancelled (payments are recalculated by the API)."""
    income, settings, _catalogs = load(income_id)
    state = state_of(income)
    if state == "reversed":
        # Revoking would bring back a document a storno has reversed; the storno still stands.
        flash(_("This document was reversed by a storno document, so its cancellation cannot "
                "be revoked. Nothing was changed."), "warning")
        return redirect_to(url_for(".detail", income_id=income_id))
    if not can_cancel(income, state):
        flash(_("This document cannot be cancelled or restored here: only unprocessed "
                "accounting documents can."), "warning")
        return redirect_to(url_for(".detail", income_id=income_id))
    target = not income.get("is_cancelled")
    if request.method == "POST":
        return _set_cancelled(income, target, settings)
    return render_template("incomes/cancel.html", income=income, target=target)


def _set_cancelled(income: dict, target: bool, settings: dict):
    if (request.form.get("is_cancelled") == "1") != target:
        # Sent twice (an earlier answer lost), or someone else got there first.
        flash(_("The document was already cancelled.") if not target else
              _("The cancellation was already revoked."), "info")
        return redirect_to(url_for(".detail", income_id=income["id"]))
    try:
        upstream.update(g.api, income["id"], {"is_cancelled": target}, settings)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(
            lambda text: render_template("incomes/cancel.html", income=income, target=target,
                                         problem=text), exc, _lost_cancel(target),
            reload_url=url_for(".detail", income_id=income["id"]))
    except ValidationError as exc:
        flash(" ".join(exc.messages()) or _("The accounting service refused the change."),
              "error")
    else:
        flash(_("The document is now cancelled; its payments were recalculated.") if target else
              _("The cancellation was revoked; its payments were recalculated."), "success")
    return redirect_to(url_for(".detail", income_id=income["id"]))


def _lost_cancel(target: bool) -> str:
    """What to say when the cancel (or revoke) got no answer: it may have happened."""
    if target:
        return _("The accounting service did not answer. The document may already be "
                 "cancelled: open it to check before confirming again.")
    return _("The accounting service did not answer. The cancellation may already be revoked: "
             "open the document to check before confirming again.")
