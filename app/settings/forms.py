"""The settings form: the two switches that change the income forms, administrators only."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField

from app.forms.base import PageForm

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
