"""The income list's filters: a GET form whose state lives in the URL, and the API parameters.

URL arguments (all optional): q, date_field (issued_at|fulfilled_at|due_at), date_from,
date_to, paid_status (1|2|3, or open: 1 and 3), type (1|2|6|7), review
(to_review|reviewed|none), cancelled (yes|no|not_void: all but the void, cancelled with no
storno naming them; Bookdesk's own filter, app/upstream/incomes.py), storno (yes|no),
partner (id), ordering (an API-orderable column, "-" for descending), page, page_size, tab
(overdue: unpaid live documents that are not stornos, past their due date, most days overdue
first; a filter asking for what it never lists is refused on its field).
An older link's `due_to=<date>` is read as date_field=due_at, date_to=<date>. Links that promise
a count are built with `list_query`, never by hand (app/forms/filters.py).
"""
from __future__ import annotations

from collections.abc import Mapping

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice

from app.forms.display import PartnerField, select_choices
from app.forms.filters import (
    ANY,
    OVERDUE_UNPAID,
    ListFilterForm,
    ListQuery,
    choice,
    compact,
    date_field_of,
    date_field_select,
    days,
    digits,
    is_overdue_tab,
    overdue_dates,
    overdue_fits,
    page_number,
    page_size,
)
from app.i18n import search_text
from app.templating import KINDS, PAID_STATUS
from app.upstream.incomes import NOT_VOID, STORNO_INVOICE_TYPE

# Columns GET /1/incomes can order by (sandbox incomes_filters.ORDERING; DRF `ordering`).
ORDERABLE = ("issued_at", "fulfilled_at", "due_at", "invoice_number", "gross_amount",
             "partner_name")
UNPAID = ("1", "3")
# The storno filter: invoice_type 1 marks a storno, 0 any other document.
STORNOS = {"yes": str(STORNO_INVOICE_TYPE), "no": "0"}
NOT_VOID_CHOICE = "not_void"
OVERDUE_LIVE = _l("The Overdue tab lists live documents only: no cancelled ones, no stornos.")
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
    type = SelectField(_l("Income type"), choices=select_choices(
        [ANY, *[(str(k), v) for k, v in KINDS.items()]]))
    review = SelectField(_l("Review"), choices=select_choices([
        ANY, ("to_review", _l("To review")), ("reviewed", _l("Reviewed")),
        ("none", _l("No review needed"))]))
    cancelled = SelectField(_l("Cancelled"), choices=select_choices([
        ANY, ("no", _l("Not cancelled")),
        (NOT_VOID_CHOICE, _l("All but cancelled (reversed ones too)")),
        ("yes", _l("Cancelled or reversed"))]))
    storno = SelectField(_l("Storno"), choices=select_choices([
        ANY, ("no", _l("No stornos")), ("yes", _l("Stornos only"))]))
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
              "is_cancelled": {"yes": "true", "no": "false"}.get(form.cancelled.data),
              "invoice_type": STORNOS.get(form.storno.data),
              NOT_VOID: "1" if form.cancelled.data == NOT_VOID_CHOICE else None}
    params.update(REVIEW.get(form.review.data, {}))
    dated = ((form.date_from, "from_date"), (form.date_to, "to_date"))
    if not days(dated, params, date_field_of(form.date_field)):
        return None
    params["ordering"] = ordering(args.get("ordering"))
    if is_overdue_tab(args):
        if not _overdue_fits(form, params):
            return None
        overdue(params)
    params["page"] = page_number(args)
    params["page_size"] = page_size(args)
    return compact(params)


def _paid(form: FilterForm) -> str | None:
    """The paid_status parameter; "open" asks for the unpaid and the partially paid."""
    value = choice(form.paid_status)
    return ",".join(UNPAID) if value == OPEN else value


def _overdue_fits(form: FilterForm, params: dict) -> bool:
    return overdue_fits(
        form, params, (form.paid_status, params.get("paid_status") == "2", OVERDUE_UNPAID),
        (form.cancelled, form.cancelled.data == "yes", OVERDUE_LIVE),
        (form.storno, form.storno.data == "yes", OVERDUE_LIVE))


def overdue(params: dict) -> None:
    """Narrow params to unpaid (or partly paid), live documents that are not stornos, due
    before today, most days overdue first (forms.filters.overdue_dates)."""
    overdue_dates(params)
    params.update(is_cancelled="false", invoice_type="0")
    params.pop(NOT_VOID, None)  # no cancelled document is listed: nothing void to leave out
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
