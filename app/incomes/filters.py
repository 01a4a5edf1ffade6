"""The income list's filters: a GET form whose state lives in the URL, and the API parameters.

URL arguments (all optional): q, date_field (issued_at|fulfilled_at|due_at), from, to,
paid_status (1|2|3), type (1|2|6|7), review (to_review|reviewed|none), cancelled (yes|no),
partner (id), ordering (an API-orderable column, "-" for descending), page, page_size.
The dashboard's `due_to=<date>` is read as date_field=due_at, to=<date>.
"""
from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField

from app.forms.widgets import PartnerField
from app.i18n import parse_date
from app.incomes.labels import PAID_STATUS, TYPES

# Columns GET /1/incomes can order by (sandbox incomes_filters.ORDERING; DRF `ordering`).
ORDERABLE = ("issued_at", "fulfilled_at", "due_at", "invoice_number", "gross_amount",
             "partner_name")
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 50
ANY = ("", _l("Any"))
REVIEW = {"to_review": {"needs_review": "true", "review_done": "false"},
          "reviewed": {"review_done": "true"}, "none": {"needs_review": "false"}}


class FilterForm(FlaskForm):
    """The list filters (GET, no CSRF: reading only)."""

    class Meta:
        csrf = False

    q = StringField(_l("Search"), render_kw={"type": "search", "placeholder": _l(
        "Invoice number or partner")})
    date_field = SelectField(_l("Date"), choices=[("issued_at", _l("Issue date")), (
        "fulfilled_at", _l("Fulfilment date")), ("due_at", _l("Due date"))])
    date_from = StringField(_l("From"), render_kw={"type": "date"})
    date_to = StringField(_l("To"), render_kw={"type": "date"})
    paid_status = SelectField(_l("Payment"), choices=[ANY, *[(str(k), v) for k, v in
                                                            PAID_STATUS.items()]])
    type = SelectField(_l("Kind"), choices=[ANY, *[(str(k), v) for k, v in TYPES.items()]])
    review = SelectField(_l("Review"), choices=[ANY, ("to_review", _l("To review")), (
        "reviewed", _l("Reviewed")), ("none", _l("No review needed"))])
    cancelled = SelectField(_l("Cancelled"), choices=[ANY, ("no", _l("Not cancelled")), (
        "yes", _l("Cancelled"))])
    partner = PartnerField(_l("Partner"), choices=[("", _l("Any"))], validate_choice=False)


def filter_form(args: MultiDict, partner_name: str | None = None) -> FilterForm:
    """The filter form bound to the URL arguments (dashboard aliases understood)."""
    data = MultiDict(args)
    if data.get("due_to") and not data.get("date_to"):
        data["date_field"], data["date_to"] = "due_at", data["due_to"]
    form = FilterForm(formdata=data)
    if form.partner.data:
        form.partner.choices = [("", _l("Any")), (form.partner.data,
                                                  partner_name or f"#{form.partner.data}")]
    return form


def api_params(form: FilterForm, args: MultiDict) -> dict | None:
    """GET /1/incomes parameters; None (with errors on the form) when a date is invalid."""
    params = {"search": (form.q.data or "").strip(), "paid_status": _choice(form.paid_status),
              "type": _choice(form.type), "partner": _digits(form.partner.data),
              "is_cancelled": {"yes": "true", "no": "false"}.get(form.cancelled.data)}
    params.update(REVIEW.get(form.review.data, {}))
    if not _dates(form, params):
        return None
    params["ordering"] = ordering(args.get("ordering"))
    params["page"] = _digits(args.get("page")) or 1
    params["page_size"] = page_size(args)
    return {key: value for key, value in params.items() if value not in (None, "")}


def _choice(field) -> str | None:
    return field.data if field.data in {value for value, _label in field.choices} else None


def _digits(value) -> int | None:
    return int(value) if value and str(value).isdigit() else None


def _dates(form: FilterForm, params: dict) -> bool:
    ok = True
    for field, key in ((form.date_from, "from_date"), (form.date_to, "to_date")):
        try:
            day = parse_date(field.data)
        except ValueError:
            field.errors = [_("Enter a date, e.g. 2024-03-05.")]
            ok = False
            continue
        if day:
            params[key] = day.isoformat()
            params["date_field"] = form.date_field.data if form.date_field.data in (
                "issued_at", "fulfilled_at", "due_at") else "issued_at"
    return ok


def ordering(value: str | None) -> str:
    """The requested ordering when the API can order by it, else newest issued first."""
    name = (value or "").lstrip("-")
    return value if name in ORDERABLE else "-issued_at"


def page_size(args: MultiDict) -> int:
    """The page size from the URL, one of PAGE_SIZES."""
    size = _digits(args.get("page_size"))
    return size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE


def is_filtered(form: FilterForm) -> bool:
    """True when any filter narrows the list."""
    return any(field.data for field in (form.q, form.date_from, form.date_to, form.paid_status,
                                        form.type, form.review, form.cancelled, form.partner))
