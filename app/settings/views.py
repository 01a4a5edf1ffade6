"""The settings page: company data, and the income-form switches for administrators."""
from __future__ import annotations

from flask import flash, g, render_template, url_for
from flask_babel import gettext as _

from app.htmx import redirect_to
from app.settings import bp, company
from app.upstream import PermissionDenied, ValidationError


@bp.route("/", methods=["GET", "POST"])
def index():
    """Show the settings; a save sends the switches that changed (administrators only)."""
    info = company.info(g.api)
    form = company.SettingsForm(data={key: bool(info.get(key)) for key in company.SWITCHES})
    status = 200
    if form.is_submitted():
        response = None if company.read_only() else _save(form, info)
        if response is not None:
            return response
        status = 403 if company.read_only() else 400
    return render_template("settings/index.html", info=info, form=form,
                           read_only=company.read_only(), switches=company.SWITCHES), status


def _save(form, info: dict):
    """Send the changed switches; None when the page has to show why not."""
    if not form.validate():
        return None
    body = form.changes(info)
    if not body:
        flash(_("Nothing was changed."), "info")
    elif not _send(form, body):
        return None
    else:
        flash(_("The settings were saved. Income forms follow them from now on."), "success")
    return redirect_to(url_for(".index"))


def _send(form, body: dict) -> bool:
    """PATCH the settings; False (refusal remembered or placed on the form) when refused."""
    try:
        company.update(g.api, g.company_id, body)
    except PermissionDenied as exc:
        if exc.two_factor:
            raise
        company.remember_refusal()
        return False
    except ValidationError as exc:
        form.place(exc)
        return False
    return True
