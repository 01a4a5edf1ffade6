"""The review queue's filters: a GET form whose state lives in the URL.

URL arguments (all optional): partner (id), date_field (issued_at|fulfilled_at|due_at), date_from,
date_to, currency (id), amount_min, amount_max (gross), missing (an assignment has no revenue
type), policy (several|none|one), ordering, page, page_size. The API filters by partner, dates
and currency; amounts, missing revenue type and the policy outcome are not API filters, so
Bookdesk applies them to the queue it reads (queue.scan).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import urlencode

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, SelectField, StringField

from app.forms.widgets import PartnerField
from app.i18n import parse_date, parse_decimal
from app.incomes.filters import ordering as income_ordering

QUEUE = {"needs_review": "true", "review_done": "false"}
KEY_ARGS = ("partner", "date_field", "date_from", "date_to", "currency", "amount_min", "amount_max",
            "missing", "policy", "ordering")
PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 50
POLICY_CHOICES = (("", _l("Any")), ("several", _l("Several policies match")),
                  ("none", _l("No policy matches")), ("one", _l("One policy matches")))


class QueueFilterForm(FlaskForm):
    """The queue filters (GET, no CSRF: reading only)."""

    class Meta:
        csrf = False

    partner = PartnerField(_l("Partner"), choices=[("", _l("Any"))], validate_choice=False)
    date_field = SelectField(_l("Date"), choices=[("issued_at", _l("Issue date")), (
        "fulfilled_at", _l("Fulfilment date")), ("due_at", _l("Due date"))])
    date_from = StringField(_l("From"), render_kw={"type": "date"})
    date_to = StringField(_l("To"), render_kw={"type": "date"})
    currency = SelectField(_l("Currency"), choices=[("", _l("Any"))], validate_choice=False)
    amount_min = StringField(_l("Gross from"), render_kw={"inputmode": "decimal"})
    amount_max = StringField(_l("Gross to"), render_kw={"inputmode": "decimal"})
    missing = BooleanField(_l("Missing revenue type"))
    policy = SelectField(_l("Policies"), choices=POLICY_CHOICES, validate_choice=False)


@dataclass(frozen=True)
class LocalFilter:
    """The filters Bookdesk applies itself (the API has no parameter for them)."""

    amount_min: Decimal | None = None
    amount_max: Decimal | None = None
    missing: bool = False
    policy: str = ""

    @property
    def active(self) -> bool:
        """True when any of them narrows the queue."""
        return bool(self.amount_min is not None or self.amount_max is not None or self.missing
                    or self.policy)


@dataclass(frozen=True)
class Filters:
    """A parsed queue filter: API parameters, local filter, the key of this queue."""

    form: QueueFilterForm
    params: dict | None
    local: LocalFilter
    key: str
    page: int
    page_size: int


def parse(args: MultiDict, currencies: dict | None = None) -> Filters:
    """Bind the URL arguments; params is None when a value is invalid (errors on the form)."""
    form = QueueFilterForm(formdata=args)
    form.currency.choices = [("", _l("Any"))] + [(str(k), v) for k, v in
                                                 sorted((currencies or {}).items(),
                                                        key=lambda item: item[1])]
    params = {**QUEUE, "ordering": income_ordering(args.get("ordering"))}
    local = _local(form)
    ok = _api_filters(form, params) and local is not None
    return Filters(form, params if ok else None, local or LocalFilter(), key_of(args),
                   _digits(args.get("page")) or 1, page_size(args))


def _api_filters(form: QueueFilterForm, params: dict) -> bool:
    params["partner"] = _digits(form.partner.data)
    params["currency"] = _digits(form.currency.data)
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
    for key in [k for k, v in params.items() if v in (None, "")]:
        del params[key]
    return ok


def _local(form: QueueFilterForm) -> LocalFilter | None:
    bounds = []
    for field in (form.amount_min, form.amount_max):
        try:
            bounds.append(parse_decimal(field.data))
        except ValueError:
            field.errors = [_("Enter an amount, e.g. 12 500 or 12500.50.")]
            bounds.append(None)
    if form.amount_min.errors or form.amount_max.errors:
        return None
    policy = form.policy.data if form.policy.data in dict(POLICY_CHOICES) else ""
    return LocalFilter(bounds[0], bounds[1], bool(form.missing.data), policy)


def key_of(args: MultiDict) -> str:
    """The queue's identity: its filter and ordering arguments, canonical (no page)."""
    pairs = sorted((k, v) for k in KEY_ARGS for v in args.getlist(k) if v not in ("", None))
    return urlencode(pairs)


def page_size(args: MultiDict) -> int:
    """The page size from the URL, one of PAGE_SIZES."""
    size = _digits(args.get("page_size"))
    return size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE


def _digits(value) -> int | None:
    return int(value) if value and str(value).isdigit() else None


def is_filtered(form: QueueFilterForm) -> bool:
    """True when any filter narrows the queue."""
    return any(field.data for field in (form.partner, form.date_from, form.date_to,
                                        form.currency, form.amount_min, form.amount_max,
                                        form.missing, form.policy))
