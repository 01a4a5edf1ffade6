"""Rules checked before anything is sent (the API checks them too; this keeps the round trip
and shows the message on the right field): pairs together, start not after end, exchange rate,
totals that add up (app/forms/totals.py).
"""
from __future__ import annotations

from decimal import Decimal

from flask_babel import gettext as _

from app.forms.diff import base_values
from app.forms.fields import PAIRS
from app.forms.totals import check_form_totals


def apply_rules(form) -> bool:
    """Run every rule; True when none complained."""
    results = [rule(form) for rule in (pairs_together, period_order, exchange_rate,
                                         check_form_totals)]
    return all(results)


def pairs_together(form) -> bool:
    """vat_period_type + start, accounting period start + end: both filled or both empty."""
    ok = True
    for first, second in PAIRS:
        if not (form.is_editable(first) and form.is_editable(second)):
            continue
        filled = {name: form.values.get(name) is not None for name in (first, second)}
        if filled[first] != filled[second]:
            empty, other = (first, second) if not filled[first] else (second, first)
            form.add_error(empty, _("Fill in “%(other)s” as well, or leave both empty.",
                                    other=form.layout.specs[other].label))
            ok = False
    return ok


def period_order(form) -> bool:
    """The accounting period may not start after it ends."""
    start = form.values.get("accounting_period_start")
    end = form.values.get("accounting_period_end")
    if start and end and start > end and form.is_editable("accounting_period_start"):
        form.add_error("accounting_period_start",
                       _("The start may not be after the end of the period."))
        return False
    return True


def default_currency_id(company: dict | None, catalogs: dict) -> int | None:
    """The id of the company's default currency, from the currency catalogue."""
    code = (company or {}).get("default_currency_name")
    for item in catalogs.get("currencies") or []:
        if code and item.get("code") == code:
            return item.get("id")
    return None


def exchange_rate(form) -> bool:
    """A currency other than the company's needs an actual exchange rate (not empty, not 1)."""
    if "currency" not in form.layout.specs or not _rate_in_play(form):
        return True
    default = default_currency_id(form.layout.company, form.layout.catalogs)
    currency, rate = form.values.get("currency"), form.values.get("exchange_rate")
    if default is None or currency is None or currency == default:
        return True
    if rate is not None and rate != Decimal(1):
        return True
    target = "exchange_rate" if form.is_editable("exchange_rate") else "currency"
    form.add_error(target, _("Enter the actual exchange rate: the currency is not %(code)s, "
                             "the company's own.", code=form.layout.company.get(
                                 "default_currency_name")))
    return False


def _rate_in_play(form) -> bool:
    if form.layout.new:
        return True
    base = base_values(form)
    return any(form.is_editable(name) and form.values.get(name) != base.get(name)
               for name in ("currency", "exchange_rate"))
