"""The company object, the two income-form switches, and who may change them.

Only administrators may change settings; Bookdesk cannot know a token's role in advance, so the
first 403 of the API is remembered for that token (by its fingerprint) and the page turns
read-only with the reason.
"""
from __future__ import annotations

from flask import session
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField

from app.auth import current_actor
from app.catalog.forms import PageForm
from app.forms import invalidate_settings

INFO = "/2/company-info/"
DENIED_KEY = "settings_read_only"
SWITCHES = {
    "enable_vat_period": (
        _l("VAT period on incomes"),
        _l("Income forms get the fields “VAT period” (monthly, quarterly or yearly) and “VAT "
           "period start” on incomes not yet booked. Both are sent together; the start is "
           "saved as the first day of its period.")),
    "enable_accounting_id": (
        _l("Accounting ID on incomes"),
        _l("Income forms get the field “Accounting ID” on incomes not yet booked; leaving it "
           "empty clears it.")),
}


class SettingsForm(PageForm):
    """The switches an administrator may change."""

    enable_vat_period = BooleanField(SWITCHES["enable_vat_period"][0],
                                     description=SWITCHES["enable_vat_period"][1])
    enable_accounting_id = BooleanField(SWITCHES["enable_accounting_id"][0],
                                        description=SWITCHES["enable_accounting_id"][1])

    def changes(self, info: dict) -> dict:
        """The switches that differ from the company's current settings."""
        return {key: bool(self[key].data) for key in SWITCHES
                if bool(self[key].data) != bool(info.get(key))}


def info(api) -> dict:
    """The company object, fresh from the API (this page must not show a stale cache)."""
    return api.get(INFO) or {}


def update(api, company_id: int, body: dict) -> dict:
    """Change settings; every cached copy of them is dropped, so income forms follow at once."""
    try:
        return api.patch(f"/2/company-info/update/{company_id}/", json=body)
    finally:
        invalidate_settings(company_id)


def read_only() -> bool:
    """True when the API already refused this token a settings change."""
    return current_actor().fp in session.get(DENIED_KEY, [])


def remember_refusal() -> None:
    """Remember that the API refused this token a settings change."""
    denied = set(session.get(DENIED_KEY, []))
    denied.add(current_actor().fp)
    session[DENIED_KEY] = sorted(denied)
