"""The monthly list's filters: a GET form whose state lives in the URL, and the API parameters.

URL arguments (all optional): from, to (payment months, YYYY-MM or any date in the month),
paid (yes|no), partial (yes|no), source (manual, an integration label, or "integration").
"""
from __future__ import annotations

import calendar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice

from app.taxes.labels import INTEGRATIONS, MANUAL, source_label
from app.taxes.months import parse_month

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
    """GET /2/monthly-* parameters; None (errors on the form) when a value cannot be used."""
    params: dict = {"is_paid": YES_NO.get(form.paid.data),
                    "is_installment": YES_NO.get(form.partial.data)}
    ok = _months(form, params) & _source(form, params)
    return {key: value for key, value in params.items() if value} if ok else None


def _months(form: FilterForm, params: dict) -> bool:
    ok = True
    for field, key in ((form.month_from, "from_date"), (form.month_to, "to_date")):
        try:
            month = parse_month(field.data)
        except ValueError:
            field.errors = [_("Enter a month, e.g. 2024-03.")]
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
    """The filters as URL arguments (short names), for links that keep them."""
    values = {"from": form.month_from.data, "to": form.month_to.data, "paid": form.paid.data,
              "partial": form.partial.data, "source": form.source.data}
    return {key: value for key, value in values.items() if value}
