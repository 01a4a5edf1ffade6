"""The bank page's filter: a GET form read from the URL, split into what the API narrows (the
days) and what Bookdesk narrows on the rows it was sent (amount, partner, matched or not).

The URL is the whole view: a copied link reproduces it. Days are ISO (the date inputs send
them; a typed Hungarian or English day is read too), amounts in the page's locale.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField

from app.forms.display import select_choices
from app.forms.filters import ANY, ListFilterForm, amounts, arg_page
from app.i18n import matches
from app.numbers import InputError, parse_date

MATCHED, UNMATCHED = "matched", "unmatched"
MATCH_CHOICES = select_choices((ANY, (MATCHED, _l("Matched to an expense")),
                                (UNMATCHED, _l("Unmatched"))))


class BankFilterForm(ListFilterForm):
    """The transaction filters; field names are the URL's query keys."""

    from_date = StringField(_l("From"), render_kw={"type": "date"})
    to_date = StringField(_l("To"), render_kw={"type": "date"})
    amount_min = StringField(_l("Amount from"), render_kw={"inputmode": "decimal"})
    amount_max = StringField(_l("Amount to"), render_kw={"inputmode": "decimal"})
    partner = StringField(_l("Partner"), render_kw={"autocomplete": "off"})
    match = SelectField(_l("Matching"), choices=MATCH_CHOICES, validate_choice=False)


@dataclass(frozen=True)
class Filter:
    """A parsed filter: days for the API, the rest applied to the rows; page for the table."""

    from_date: date | None = None
    to_date: date | None = None
    amount_min: Decimal | None = None
    amount_max: Decimal | None = None
    partner: str = ""
    match: str = ""
    page: int = 1

    def api_params(self) -> dict:
        """The day range as /1/payments takes it (YYYY-MM-DD), empty ends left out."""
        days = {"from_date": self.from_date, "to_date": self.to_date}
        return {key: day.isoformat() for key, day in days.items() if day}

    def keeps(self, row: dict) -> bool:
        """True when a transaction row (present.transaction_rows) passes the local filters."""
        amount = row["amount"]
        if amount is None and (self.amount_min is not None or self.amount_max is not None):
            return False
        if self.amount_min is not None and amount < self.amount_min:
            return False
        if self.amount_max is not None and amount > self.amount_max:
            return False
        if self.partner and not matches(self.partner, row["partner"] or ""):
            return False
        return self.match != (UNMATCHED if row["matched"] else MATCHED)


def parse(args: MultiDict) -> tuple[BankFilterForm, Filter | None]:
    """The form filled from the URL and its filter; None when a field was refused (errors on
    the form's fields)."""
    form = BankFilterForm(formdata=args)
    low, high = amounts((form.amount_min, form.amount_max))
    days = [_day(field) for field in (form.from_date, form.to_date)]
    if any(field.errors for field in form):
        return form, None
    match = form.match.data if form.match.data in (MATCHED, UNMATCHED) else ""
    return form, Filter(days[0], days[1], low, high, (form.partner.data or "").strip(), match,
                        arg_page(args))


def _day(field) -> date | None:
    try:
        return parse_date(field.data)
    except InputError as error:
        field.errors = [error.message]
        return None
