"""The income list's filters: a GET form whose state lives in the URL, and the API parameters.

URL arguments (all optional): q, date_field (issued_at|fulfilled_at|due_at), date_from,
date_to, paid_status (1|2|3, or open: 1 and 3), type (1|2|6|7), review
(to_review|reviewed|none), cancelled (yes|no), partner (id), ordering (an API-orderable column,
"-" for descending), page, page_size, tab (overdue: unpaid live documents past their due
date, most days overdue first).
An older link's `due_to=<date>` is read as date_field=due_at, date_to=<date>. Links that promise
a count are built with `list_query`, never by hand (app/forms/filters.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice

from app.forms.display import PartnerField, select_choices
from app.forms.filters import (
    ANY,
    OVERDUE_TAB,
    ListFilterForm,
    ListQuery,
    choice,
    compact,
    date_field_of,
    date_field_select,
    days,
    digits,
    page_number,
    page_size,
)
from app.i18n import search_text
from app.numbers import company_today
from app.templating import KINDS, PAID_STATUS

# Columns GET /1/incomes can order by (sandbox incomes_filters.ORDERING; DRF `ordering`).
ORDERABLE = ("issued_at", "fulfilled_at", "due_at", "invoice_number", "gross_amount",
             "partner_name")
UNPAID = ("1", "3")
OPEN = "open"
REVIEW = {"to_review": {"needs_review": "true", "review_done": "false"},
          "reviewed": {"review_done": "true"}, "none": {"needs_review": "false"}}


class FilterForm(ListFilterForm):
    """The list filters."""

    modifiers = ("date_field",)
    q = StringField(_l("Search"), render_kw={"type": "search", "placeholder": _l(
        "Invoice number or partner")})
    date_field = date_field_select()
    date_from = StringField(_l("From"), render_kw={"type": "date"})
    date_to = StringField(_l("To"), render_kw={"type": "date"})
    paid_status = SelectField(_l("Payment"), choices=select_choices(
        [ANY, *[(str(k), v) for k, v in PAID_STATUS.items()],
         SelectChoice(OPEN, _l("Unpaid or partially paid"))]))
    type = SelectField(_l("Kind"), choices=select_choices(
        [ANY, *[(str(k), v) for k, v in KINDS.items()]]))
    review = SelectField(_l("Review"), choices=select_choices([
        ANY, ("to_review", _l("To review")), ("reviewed", _l("Reviewed")),
        ("none", _l("No review needed"))]))
    cancelled = SelectField(_l("Cancelled"), choices=select_choices([
        ANY, ("no", _l("Not cancelled")), ("yes", _l("Cancelled or reversed"))]))
    partner = PartnerField(_l("Partner"), choices=[ANY], validate_choice=False)


def filter_form(args: MultiDict, partner_name: str | None = None) -> FilterForm:
    """The filter form bound to the URL arguments (dashboard aliases understood)."""
    data = MultiDict(args)
    if data.get("due_to") and not data.get("date_to"):
        data["date_field"], data["date_to"] = "due_at", data["due_to"]
    form = FilterForm(formdata=data)
    if form.partner.data:
        form.partner.choices = select_choices([ANY, (form.partner.data,
                                                     partner_name or f"#{form.partner.data}")])
    return form


def api_params(form: FilterForm, args: MultiDict) -> dict | None:
    """GET /1/incomes parameters; None (with errors on the form) when a date is invalid."""
    params = {"search": search_text(form.q.data), "paid_status": _paid(form),
              "type": choice(form.type), "partner": digits(form.partner.data, "partner"),
              "is_cancelled": {"yes": "true", "no": "false"}.get(form.cancelled.data)}
    params.update(REVIEW.get(form.review.data, {}))
    dated = ((form.date_from, "from_date"), (form.date_to, "to_date"))
    if not days(dated, params, date_field_of(form.date_field)):
        return None
    params["ordering"] = ordering(args.get("ordering"))
    if is_overdue_tab(args):
        overdue(params)
    params["page"] = page_number(args)
    params["page_size"] = page_size(args)
    return compact(params)


def _paid(form: FilterForm) -> str | None:
    """The paid_status parameter; "open" asks for the unpaid and the partially paid."""
    value = choice(form.paid_status)
    return ",".join(UNPAID) if value == OPEN else value


def is_overdue_tab(args: Mapping) -> bool:
    """True on the Overdue tab (?tab=overdue)."""
    return args.get("tab") == OVERDUE_TAB


def overdue(params: dict) -> None:
    """Narrow params to unpaid (or partly paid), live documents due before today in the
    company's zone, most days overdue first; a due-date range still narrows it further."""
    yesterday = (company_today() - timedelta(days=1)).isoformat()
    if params.get("date_field") != "due_at":
        params.pop("from_date", None)
    params["to_date"] = min(params.get("to_date") or yesterday, yesterday) \
        if params.get("date_field") == "due_at" else yesterday
    params.update(date_field="due_at", is_cancelled="false", ordering="due_at")
    if params.get("paid_status") not in UNPAID:
        params["paid_status"] = ",".join(UNPAID)


def ordering(value: str | None) -> str:
    """The requested ordering when the API can order by it, else newest issued first."""
    name = (value or "").lstrip("-")
    return value if name in ORDERABLE else "-issued_at"



def read_params(args: MultiDict) -> dict | None:
    """GET /1/incomes parameters of the list at these URL arguments, read as the list reads them."""
    return api_params(filter_form(args), args)


def list_query(args: Mapping) -> ListQuery:
    """The income list at these URL arguments: its link and the upstream query of its rows."""
    return ListQuery.of("incomes.index", read_params, args)
