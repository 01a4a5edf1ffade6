"""The review area's forms and the values they carry: the queue's URL filters, the view of a
record the reviewer saw (posted back, compared with the API's answer), and PATCH-shaped values.

Queue filters, URL arguments (all optional): partner (id), date_field (issued_at|fulfilled_at|
due_at), date_from, date_to, currency (id), amount_min, amount_max (gross), missing (an
assignment has no revenue type), policy (several|none|one), ordering, page, page_size. The API
filters by partner, dates and currency; amounts, missing revenue type and the policy outcome are
not API filters, so Bookdesk applies them to the queue it reads (flow.scan).

What the reviewer saw: the upstream has no version field or conditional write (spec 4.2), so
"has someone changed this income since I looked" is answered by comparing values: the view of a
record as shown (posted back with the form) against the record the API returns. List and detail
records compare alike: references become ids, amounts normalised decimals, tag lists sorted.
Review flags are left out: they are what the reviewer changes.

Payload-shaped values: the review log keeps, per income, the values an action sent (after) and
the values they replaced (before), both in the shape of a PATCH body, so undo can send `before`
as it is. `after` also holds the document's state the action left it in (STATE_KEYS, never in
`before`): undo checks it and never sends it.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, SelectField, StringField

from app.forms import spec_for
from app.forms.display import PartnerField, select_choices
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
from app.incomes.forms import ordering as income_ordering
from app.numbers import format_number, to_decimal
from app.upstream.responses import ref

QUEUE = {"needs_review": "true", "review_done": "false"}
KEY_ARGS = ("partner", "date_field", "date_from", "date_to", "currency", "amount_min", "amount_max",
            "missing", "policy", "ordering")
POLICY_CHOICES = select_choices((ANY, ("several", _l("Several policies match")),
                                 ("none", _l("No policy matches")),
                                 ("one", _l("One policy matches"))))


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
    form.currency.choices = select_choices([ANY] + [(str(k), v) for k, v in sorted(
        (currencies or {}).items(), key=lambda item: item[1])])
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
    policy = form.policy.data if form.policy.data in {c.value for c in POLICY_CHOICES} else ""
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


# What the reviewer saw, and what changed since.

SCALARS = ("invoice_number", "partner_name", "partner_tax_number", "issued_at", "fulfilled_at",
           "due_at", "vat_area", "is_cancelled")
AMOUNTS = ("net_amount", "vat_amount", "gross_amount", "exchange_rate")
ROW_REFS = ("revenue_type", "vat", "ledger_number_id")
ROW_AMOUNTS = ("net_amount", "vat_amount", "gross_amount")
LIST_KEYS = (*SCALARS, *AMOUNTS, "partner", "currency", "tags", "assignments")
SCREEN_KEYS = (*LIST_KEYS, "note")
EXTRA_LABELS = {"partner": _l("Partner"), "assignments": _l("Revenue categorisation")}


@dataclass(frozen=True)
class Change:
    """One field that differs: its key, label, and the two values as text."""

    key: str
    label: Any
    before: str
    after: str


def view(record: dict, keys: tuple[str, ...] = SCREEN_KEYS) -> dict:
    """The comparable values of a record (list or detail shape)."""
    out: dict[str, Any] = {}
    for key in keys:
        out[key] = _value(key, record)
    return out


def _value(key: str, record: dict) -> Any:
    if key == "partner":
        return ref(record.get("partner_id", record.get("partner")))
    if key == "currency":
        return ref(record.get("currency"))
    if key == "tags":
        return sorted(ref(tag) for tag in record.get("tags") or [])
    if key == "assignments":
        return [_row(row) for row in record.get("assignments") or []]
    if key in AMOUNTS:
        return amount(record.get(key))
    return _text(record.get(key)) if key != "is_cancelled" else bool(record.get(key))


def _row(row: dict) -> dict:
    out = {key: ref(row.get(key)) for key in ROW_REFS}
    out.update({key: amount(row.get(key)) for key in ROW_AMOUNTS})
    out["tags"] = sorted(ref(tag) for tag in row.get("tags") or [])
    out["job_number"] = _text(row.get("job_number"))
    return out


def amount(value: Any) -> str | None:
    """A decimal as plain text without trailing zeros ("1270.00" and "1270" compare equal)."""
    if value in (None, ""):
        return None
    number = to_decimal(value)
    return str(value) if number is None else format(number.normalize(), "f")


def _text(value: Any) -> Any:
    return None if value in (None, "") else str(value)[:5000]


def fingerprint(record: dict, keys: tuple[str, ...] = LIST_KEYS) -> str:
    """A short hash of the comparable view (for list rows, which post many at once)."""
    data = json.dumps(view(record, keys), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def encode(seen: dict) -> str:
    """The view as compact JSON for a hidden input."""
    return json.dumps(seen, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decode(text: str | None) -> dict | None:
    """The posted view, or None when missing or not a view."""
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def changes(seen: dict, record: dict, names: dict) -> list[Change]:
    """The fields whose value in record differs from what the reviewer saw."""
    now = view(record, tuple(seen))
    return [Change(key, label(key), describe(key, seen.get(key), names),
                   describe(key, now[key], names))
            for key in now if now[key] != seen.get(key)]


def label(key: str) -> Any:
    """The field's label from the registry."""
    return EXTRA_LABELS.get(key) or spec_for(key).label


def describe(key: str, value: Any, names: dict) -> str:
    """A value as short text, with names for ids (names: {catalogue: {id: name}})."""
    if value in (None, "", []):
        return "—"
    if key == "tags":
        return ", ".join(names.get("tags", {}).get(v, f"#{v}") for v in value)
    if key == "currency":
        return names.get("currencies", {}).get(value, f"#{value}")
    if key == "assignments":
        return "; ".join(_row_text(row, names) for row in value) or "—"
    if isinstance(value, bool):
        return str(_l("Yes") if value else _l("No"))
    return format_number(value) if key in AMOUNTS else str(value)


def _row_text(row: dict, names: dict) -> str:
    kind = names.get("revenue_types", {}).get(row.get("revenue_type")) or str(
        _l("no revenue type"))
    tags = ", ".join(names.get("tags", {}).get(t, f"#{t}") for t in row.get("tags") or [])
    job = row.get("job_number")
    gross = format_number(row.get("gross_amount"))  # exact, in the page's notation
    return " · ".join(p for p in (kind, gross, tags, job) if p)


# Payload-shaped values: what undo sends back, and whether a value still stands.

ROW_KEYS = ("revenue_type", "net_amount", "vat_amount", "gross_amount", "vat", "tags",
            "job_number", "ledger_number_id", "vat_ledger_number_id",
            "company_vat_category_id")
TAG_LISTS = ("tags", "simple_tags")
STATE_KEYS = ("is_cancelled",)


def payload_value(record: dict, key: str) -> Any:
    """The record's value of key as a PATCH body carries it (ids for references)."""
    if key == "assignments":
        return [payload_row(row) for row in record.get("assignments") or []]
    if key in TAG_LISTS:
        return [ref(tag) for tag in record.get(key) or []]
    value = record.get(key)
    return ref(value) if isinstance(value, dict) else value


def payload_row(row: dict) -> dict:
    """An assignment as the update takes it (every column, references as ids, no row id)."""
    out = {key: ref(row.get(key)) for key in ROW_KEYS if key != "tags"}
    out["tags"] = [ref(tag) for tag in row.get("tags") or []]
    return out


def state(record: dict | None) -> dict:
    """The document state an action leaves an income in (cancelled or reversed, or not)."""
    return {"is_cancelled": bool((record or {}).get("is_cancelled"))}


def before_values(record: dict, body: dict) -> dict:
    """What the record held for every key of a PATCH body."""
    return {key: payload_value(record, key) for key in body}


def stands(key: str, sent: Any, record: dict) -> bool:
    """True when the record still holds the value an action sent for key."""
    current = payload_value(record, key)
    if key == "assignments":
        return _rows_same(sent or [], current)
    if key in TAG_LISTS:
        return sorted(sent or []) == sorted(current)
    return _scalar(sent) == _scalar(current)


def _rows_same(sent: list, current: list) -> bool:
    if len(sent) != len(current):
        return False
    for mine, theirs in zip(sent, current, strict=True):
        for key, value in mine.items():
            if key != "id" and not _cell_same(key, value, theirs.get(key)):
                return False
    return True


def _cell_same(key: str, mine: Any, theirs: Any) -> bool:
    if key == "tags":
        return sorted(ref(t) for t in mine or []) == sorted(ref(t) for t in theirs or [])
    if key in ROW_AMOUNTS:
        return amount(mine) == amount(theirs)
    return _scalar(ref(mine)) == _scalar(ref(theirs))


def _scalar(value: Any) -> Any:
    if value in (None, ""):
        return None
    return amount(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else value
