"""The expense list's filters: a GET form whose state lives in the URL, and the API parameters.

URL arguments (all optional): q, is_paid (true|false), is_installment (true|false), since (a
local date-time, or ISO 8601 with its own offset) with tz (a zone or a fixed offset),
created_from / created_to (days), min_amount / max_amount, page_size, cursor.
"""
from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext as _
from flask_babel import gettext as translate
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField

from app.expenses import since as since_time
from app.forms.filters import (
    ANY,
    ListFilterForm,
    ListQuery,
    amounts,
    choice,
    compact,
    days,
    page_size,
)
from app.numbers import company_zone_name

# Which filter field an upstream error about a query parameter belongs to.
FIELD_OF = {"updated_since": "since", "from_date": "created_from", "to_date": "created_to",
            "min_amount": "min_amount", "max_amount": "max_amount", "search": "q",
            "is_paid": "is_paid", "is_installment": "is_installment"}


class FilterForm(ListFilterForm):
    """The list filters."""

    modifiers = ("tz",)
    q = StringField(_l("Search"), render_kw={"type": "search", "placeholder": _l(
        "Invoice number, partner, custom field")})
    is_paid = SelectField(_l("Paid"), choices=[ANY, ("true", _l("Paid")),
                                               ("false", _l("Not paid"))])
    is_installment = SelectField(_l("Partially paid"), choices=[
        ANY, ("true", _l("Partially paid")), ("false", _l("Not partially paid"))])
    since = StringField(_l("Changed since"), render_kw={"type": "datetime-local", "step": "1"})
    tz = SelectField(_l("Time zone"), choices=since_time.zone_choices)
    created_from = StringField(_l("Created from"), render_kw={"type": "date"})
    created_to = StringField(_l("Created until"), render_kw={"type": "date"})
    min_amount = StringField(_l("Gross at least"), render_kw={"inputmode": "decimal"})
    max_amount = StringField(_l("Gross at most"), render_kw={"inputmode": "decimal"})


def filter_form(args: MultiDict) -> FilterForm:
    """The filter form bound to the URL arguments (an offset inside `since` picks the zone)."""
    data = MultiDict(args)
    local, offset = since_time.split(data.get("since", ""))
    if offset:
        data["since"], data["tz"] = local, offset
    form = FilterForm(formdata=data)
    form.tz.choices = since_time.zone_choices(form.tz.data)
    if not form.tz.data:
        form.tz.data = company_zone_name()
    return form


def api_params(form: FilterForm, args: MultiDict) -> dict | None:
    """GET /2/expenses parameters; None (with errors on the form) when an input is invalid."""
    params = {"search": (form.q.data or "").strip(), "is_paid": choice(form.is_paid),
              "is_installment": choice(form.is_installment)}
    created = ((form.created_from, "from_date"), (form.created_to, "to_date"))
    checks = (_since(form, params), days(created, params, "created_at"),
              _amounts(form, params))
    if not all(checks):
        return None
    params["page_size"] = page_size(args)
    params["cursor"] = args.get("cursor") or None
    return compact(params)


def _since(form: FilterForm, params: dict) -> bool:
    try:
        moment = since_time.parse(form.since.data, form.tz.data)
    except ValueError:
        form.since.errors = [_("Enter a date and time, e.g. 2025-03-05 10:00.")]
        return False
    if moment is not None:
        params["updated_since"] = moment.isoformat()
    return True


def _amounts(form: FilterForm, params: dict) -> bool:
    fields = (form.min_amount, form.max_amount)
    values = amounts(fields)
    params.update({f.name: str(a) for f, a in zip(fields, values, strict=True) if a is not None})
    return not any(field.errors for field in fields)


def place_upstream(form: FilterForm, error) -> list[str]:
    """Put an upstream 400 about the query on its filter field; the rest comes back as text."""
    rest = list(error.non_field_errors)
    for key, messages in error.field_errors.items():
        name = FIELD_OF.get(key)
        if name is None:
            rest.extend(m for m in messages if key != "code")
            continue
        form[name].errors = [*form[name].errors, *(translate(m) for m in messages)]
    return rest


def read_params(args: MultiDict) -> dict | None:
    """GET /2/expenses parameters of the list at these URL arguments, read as the list reads
    them."""
    return api_params(filter_form(args), args)


def list_query(args: Mapping) -> ListQuery:
    """The expense list at these URL arguments: its link and the upstream query of its rows."""
    return ListQuery.of("expenses.index", read_params, args)
