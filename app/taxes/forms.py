"""The taxes area's input: the monthly list's filters (a GET form whose state lives in the URL)
and the grid rows of the create and edit pages (what was typed, what it means, what is wrong).

Filter URL arguments (all optional): from, to (payment months: YYYY-MM, which links keep, or
as typed in the page's language, app/numbers.py parse_month), paid (yes|no), partial
(yes|no), source (manual, an integration label, or "integration").

Create and edit grids name their inputs `<prefix><field>` (`rows-0-amount`, `r-17-amount`).
A row keeps every typed value, so a refused grid comes back exactly as it was sent.
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice

from app import identifiers
from app.numbers import (
    InputError,
    month_key,
    parse_amount,
    parse_date,
    parse_month,
)
from app.taxes.present import INTEGRATIONS, MANUAL, TAG_FIELDS
from app.templating import source_label

ANY = SelectChoice("", _l("Any"))
YES_NO = {"yes": "true", "no": "false"}
ANY_INTEGRATION = "integration"


def source_choices() -> list[tuple[str, str]]:
    """Any, manual, any integration, then each known integration: nothing else can be picked."""
    return [ANY, SelectChoice(MANUAL, source_label(MANUAL)),
            SelectChoice(ANY_INTEGRATION, _l("Any integration")),
            *[SelectChoice(key, label) for key, label in INTEGRATIONS.items()]]


class FilterForm(FlaskForm):
    """The list filters (GET, no CSRF: reading only)."""

    class Meta:
        csrf = False

    month_from = StringField(_l("From month"), name="from", render_kw={"type": "month"})
    month_to = StringField(_l("To month"), name="to", render_kw={"type": "month"})
    paid = SelectField(_l("Paid"), choices=[
        ANY, SelectChoice("yes", _l("Paid")), SelectChoice("no", _l("Not paid"))])
    partial = SelectField(_l("Partially paid"), choices=[
        ANY, SelectChoice("yes", _l("Partially paid")),
        SelectChoice("no", _l("Not partially paid"))])
    source = SelectField(_l("Source"), choices=[])


def filter_form(args: MultiDict) -> FilterForm:
    """The filter form bound to the URL arguments."""
    form = FilterForm(formdata=MultiDict(args))
    form.source.choices = source_choices()
    return form


def api_params(form: FilterForm) -> dict | None:
    """The monthly listing's parameters; None (errors on the form) when a value cannot be used."""
    params: dict = {"is_paid": YES_NO.get(form.paid.data),
                    "is_installment": YES_NO.get(form.partial.data)}
    ok = _months(form, params) & _source(form, params)
    return {key: value for key, value in params.items() if value} if ok else None


def _months(form: FilterForm, params: dict) -> bool:
    ok = True
    for box, key in ((form.month_from, "from_date"), (form.month_to, "to_date")):
        try:
            month = parse_month(box.data)
        except InputError as error:
            box.errors = [error.message]
            ok = False
            continue
        if month and key == "to_date":
            month = month.replace(day=calendar.monthrange(month.year, month.month)[1])
        params[key] = month.isoformat() if month else None
    return ok


def _source(form: FilterForm, params: dict) -> bool:
    value = form.source.data or ""
    if value not in {choice.value for choice in form.source.choices}:
        form.source.errors = [_("Pick a source from the list.")]
        return False
    params["source"] = ",".join(INTEGRATIONS) if value == ANY_INTEGRATION else value
    return True


def is_filtered(form: FilterForm) -> bool:
    """True when any filter narrows the list."""
    return any(field.data for field in (form.month_from, form.month_to, form.paid, form.partial,
                                        form.source))


def query(form: FilterForm) -> dict:
    """The filters as URL arguments (short names, months as YYYY-MM), for links that keep
    them."""
    values = {"from": _month_arg(form.month_from), "to": _month_arg(form.month_to),
              "paid": form.paid.data, "partial": form.partial.data, "source": form.source.data}
    return {key: value for key, value in values.items() if value}


def _month_arg(box) -> str:
    """A month as the URL keeps it (2024-03) whatever the language it was typed in; a refused
    one as it was typed."""
    try:
        return month_key(parse_month(box.data))
    except InputError:
        return box.data or ""


# Fields with a default in a new row: a row with only these is left out as blank.
DEFAULTED = ("month", "paid_status")
PAID_STATUSES = (1, 2, 3)


@dataclass
class Row:
    """A grid row: key (row index or record id), typed text, parsed values, messages.

    `stored` holds an existing record's values in the parsed form (edit grids only).
    """

    key: str
    fields: tuple[str, ...]
    raw: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    record: dict | None = None
    stored: dict = field(default_factory=dict)
    reason: str | None = None

    def error(self, name: str, message: str) -> None:
        """Add a message to a field (or to the row when the grid has no such column)."""
        if name in self.fields:
            self.errors.setdefault(name, []).append(message)
        else:
            self.general.append(message)

    @property
    def has_errors(self) -> bool:
        """True when any field or the row as a whole has a message."""
        return bool(self.errors or self.general)

    @property
    def filled(self) -> bool:
        """True when something beyond the defaulted fields was entered."""
        return any(self.raw.get(name) for name in self.fields if name not in DEFAULTED)

    def final(self, name: str) -> Any:
        """The value the record will have: as typed when sent, else as stored."""
        return self.values[name] if name in self.values else self.stored.get(name)


def read_row(form, prefix: str, key: str, fields: tuple[str, ...]) -> Row:
    """Read and parse a row's inputs; a field the form did not send stays unset (unchanged)."""
    row = Row(key, fields)
    for name in (name for name in fields if prefix + name in form):
        if name in TAG_FIELDS:
            row.raw[name] = [v for v in form.getlist(prefix + name) if v]
        else:
            row.raw[name] = (form.get(prefix + name) or "").strip()
        if _fits(row, name):
            _parse(row, name)
    return row


# The longest text the API takes in a field (a name 200, a tax number 40, others 1000).
TEXT_LIMITS = {"name": 200, "tax_number": 40}


def _fits(row: Row, name: str) -> bool:
    """False (with the message on the field) when the text is longer than the API takes."""
    limit = TEXT_LIMITS.get(name, 1000)
    if isinstance(row.raw[name], str) and len(row.raw[name]) > limit:
        row.error(name, _("At most %(max)d characters.", max=limit))
        return False
    return True


def _parse(row: Row, name: str) -> None:
    try:
        row.values[name] = PARSERS.get(name, _text)(row.raw[name])
    except (InputError, identifiers.IdentifierError) as error:
        row.error(name, str(error))
    except ValueError:
        row.error(name, str(MESSAGES.get(name) or _("Check this value.")))


def keep_unchanged(row: Row) -> None:
    """A stored identifier sent back unchanged stays as stored, even one refused by the check."""
    for name in IDENTIFIERS:
        same = identifiers.compact(row.raw.get(name)) == identifiers.compact(row.stored.get(name))
        if name in row.errors and row.stored.get(name) and same:
            del row.errors[name]
            row.values[name] = row.stored[name]


def _text(raw: str) -> str | None:
    return raw or None


# The payment months the API takes: each has a month before it (its title) and a day after.
FIRST_MONTH, LAST_MONTH = date(1, 2, 1), date(9999, 11, 1)


def _month(raw: str) -> str | None:
    month = parse_month(raw)
    if month and not FIRST_MONTH <= month <= LAST_MONTH:
        raise InputError(_("Enter a month from %(first)s to %(last)s.",
                           first=month_key(FIRST_MONTH), last=month_key(LAST_MONTH)),
                         "date")
    return month.isoformat() if month else None


def _amount(raw: str) -> Decimal | None:
    return parse_amount(raw)


def _day(raw: str) -> str | None:
    day = parse_date(raw)
    return day.isoformat() if day else None


def _paid(raw: str) -> int:
    if not raw:
        return 1
    if raw not in {str(status) for status in PAID_STATUSES}:
        raise ValueError("paid_status")
    return int(raw)


def _tags(raw: list[str]) -> list[int]:
    return list(dict.fromkeys(int(value) for value in raw
                              if value.isdecimal() and len(value) <= 18))


def _identifier(check):
    return lambda raw: check(raw) if raw else None


PARSERS = {"month": _month, "amount": _amount, "due_at": _day, "paid_status": _paid,
           "tags": _tags, "simple_tags": _tags,
           "tax_number": _identifier(identifiers.personal_tax_id),
           "account_number": _identifier(identifiers.domestic_account)}
IDENTIFIERS = ("tax_number", "account_number")
MESSAGES = {
    "amount": _l("Enter an amount, e.g. 125 000 or 1 234,50."),
    "paid_status": _l("Pick a payment state from the list."),
}
