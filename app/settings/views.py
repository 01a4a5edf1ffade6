"""The settings page: company data, and the income-form switches for administrators; the
company object (app/upstream/company.py), its settings changes, and who may make them.

Only administrators may change settings; Bookdesk cannot know a token's role in advance, so the
first 403 of the API is remembered (the "admin" refusal of app/auth/flow.py) and the page turns
read-only with the reason.
"""
from __future__ import annotations

from flask import flash, g, render_template, url_for
from flask_babel import gettext as _

from app.auth import ADMIN, refusal, remember_refusal
from app.errors import lost_write_response
from app.forms import invalidate_settings
from app.settings.forms import SWITCHES, SettingsForm
from app.templating import redirect_to
from app.upstream import PermissionDenied, RateLimited, Unavailable, ValidationError
from app.upstream import company as company_api


def index():
    """Show the settings; a save sends the switches that changed (administrators only)."""
    info = _company_info(g.api)
    form = SettingsForm(data={key: bool(info.get(key)) for key in SWITCHES})
    status = 200
    if form.is_submitted():
        response = None if _read_only() else _save(form, info)
        if response is not None:
            return response
        status = 403 if _read_only() else 400
    return _page(form, info), status


def _page(form, info: dict, problem: str | None = None) -> str:
    """The settings page; problem (the save got no answer) goes above the form, input kept."""
    if problem:
        form.form_errors.append(problem)
    return render_template("settings/index.html", info=info, form=form,
                           read_only=_read_only(), switches=SWITCHES,
                           typed=form.is_submitted())


def _save(form, info: dict):
    """Send the changed switches; None when the page has to show why not."""
    if not form.validate():
        return None
    body = form.changes(info)
    if not body:
        flash(_("Nothing was changed."), "info")
        return redirect_to(url_for(".index"))
    try:
        sent = _send(form, body)
    except (Unavailable, RateLimited) as exc:
        return lost_write_response(lambda text: _page(form, info, text), exc, _(
            "The accounting service did not confirm the request. The settings may already be "
            "saved: reload the page to check, then save again if needed."),
            reload_url=url_for(".index"))
    if not sent:
        return None
    flash(_("The settings were saved. Income forms follow them from now on."), "success")
    return redirect_to(url_for(".index"))


def _send(form, body: dict) -> bool:
    """PATCH the settings; False (refusal remembered or placed on the form) when refused."""
    try:
        _update(g.api, g.company_id, body)
    except PermissionDenied as exc:
        if exc.two_factor:
            raise
        remember_refusal(ADMIN)
        return False
    except ValidationError as exc:
        form.place(exc)
        return False
    return True


def _company_info(api) -> dict:
    """The company object, fresh from the API (this page must not show a stale cache)."""
    return company_api.info(api)


def _update(api, company_id: int, body: dict) -> dict:
    """Change settings; every cached copy of them is dropped, so income forms follow at once."""
    try:
        return company_api.update(api, company_id, body)
    finally:
        invalidate_settings(company_id)


def _read_only() -> bool:
    """True when the API already refused this token a settings change."""
    return refusal(ADMIN) is not None
