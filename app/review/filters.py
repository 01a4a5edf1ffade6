"""The review queue's filters: a GET form whose state lives in the URL.

URL arguments (all optional): partner (id), date_field (issued_at|fulfilled_at|due_at), date_from,
date_to, currency (id), amount_min, amount_max (gross), missing (an assignment has no revenue
type), policy (several|none|one), ordering, page, page_size. The API filters by partner, dates
and currency; amounts, missing revenue type and the policy outcome are not API filters, so
Bookdesk applies them to the queue it reads (queue.scan).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import urlencode

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, SelectField, StringField

from app.forms.filters import (
    ANY,
    ListFilterForm,
    ListQuery,
    amounts,
    compact,
    date_field_of,
    date_field_select,
    days,
    digits,
    page_number,
    page_size,
)
from app.forms.widgets import PartnerField
from app.incomes.forms import ordering as income_ordering

QUEUE = {"needs_review": "true", "review_done": "false"}
KEY_ARGS = ("partner", "date_field", "date_from", "date_to", "currency", "amount_min", "amount_max",
            "missing", "policy", "ordering")
POLICY_CHOICES = (ANY, ("several", _l("Several policies match")),
                  ("none", _l("No policy matches")), ("one", _l("One policy matches")))


class QueueFilterForm(ListFilterForm):
    """The queue filters."""

    modifiers = ("date_field",)
    partner = PartnerField(_l("Partner"), choices=[ANY], validate_choice=False)
    date_field = date_field_select()
    date_from = StringField(_l("From"), render_kw={"type": "date"})
    date_to = StringField(_l("To"), render_kw={"type": "date"})
    currency = SelectField(_l("Currency"), choices=[ANY], validate_choice=False)
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
    form.currency.choices = [ANY] + [(str(k), v) for k, v in
                                     sorted((currencies or {}).items(), key=lambda item: item[1])]
    params = {**QUEUE, "ordering": income_ordering(args.get("ordering")),
              "partner": digits(form.partner.data, "partner"),
              "currency": digits(form.currency.data, "currency")}
    dated = ((form.date_from, "from_date"), (form.date_to, "to_date"))
    ok = days(dated, params, date_field_of(form.date_field))
    local = _local(form)
    ok = ok and local is not None
    return Filters(form, compact(params) if ok else None, local or LocalFilter(), key_of(args),
                   page_number(args), page_size(args))


def _local(form: QueueFilterForm) -> LocalFilter | None:
    bounds = amounts((form.amount_min, form.amount_max))
    if form.amount_min.errors or form.amount_max.errors:
        return None
    policy = form.policy.data if form.policy.data in dict(POLICY_CHOICES) else ""
    return LocalFilter(bounds[0], bounds[1], bool(form.missing.data), policy)


def key_of(args: MultiDict) -> str:
    """The queue's identity: its filter and ordering arguments, canonical (no page)."""
    pairs = sorted((k, v) for k in KEY_ARGS for v in args.getlist(k) if v not in ("", None))
    return urlencode(pairs)


def read_params(args: MultiDict) -> dict | None:
    """GET /1/incomes parameters of the queue at these URL arguments; None when Bookdesk would
    filter the queue itself (the API's count is then not the queue's)."""
    filters = parse(args)
    return None if filters.local.active else filters.params


def queue_query(args: Mapping) -> ListQuery:
    """The review queue at these URL arguments: its link and the upstream query of its rows."""
    return ListQuery.of("review.index", read_params, args)
