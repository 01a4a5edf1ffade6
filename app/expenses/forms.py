"""The expense forms: the list's filters (a GET form whose state lives in the URL, and the API
parameters) with "changed since" read in a chosen zone, and the edit form's rules.

URL arguments of the list (all optional): q, is_paid (true|false), is_installment (true|false),
since (a local date-time as typed in the page's language or ISO 8601, which links keep, or ISO
8601 with its own offset) with tz (a zone or a fixed offset),
date_field (created_at|issued_at|fulfilled_at|due_at, the date created_from / created_to
range over; created_at by default), created_from / created_to (days), min_amount / max_amount,
page_size, cursor; tab (overdue: unpaid expenses past their due date, most days overdue first,
numbered pages with page).

“Changed since” is a local date-time in a chosen zone (or with its own offset) made into an
ISO 8601 timestamp with its offset, the form `updated_since` takes (spec 4.3 rules 1, 2).

The edit form's fields come from editable_fields. Exclusion from accounting is left out (it is
an action with its own confirmation); so are the top-level amounts (an expense's totals live on
its assignments).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from flask import url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice

from app.forms import EXPENSE_ASSIGNMENT_FIELDS, EXPENSE_FIELDS, build_edit_form
from app.forms.display import MANUAL_SOURCES, record_state, select_choices
from app.forms.filters import (
    ANY,
    OVERDUE_UNPAID,
    ListFilterForm,
    ListQuery,
    amounts,
    choice,
    compact,
    days,
    is_overdue_tab,
    overdue_dates,
    overdue_fits,
    page_number,
    page_size,
)
from app.forms.registry import variant
from app.i18n import search_text
from app.numbers import (
    DEFAULT_TIMEZONE,
    InputError,
    company_zone,
    company_zone_name,
    moment_key,
)
from app.numbers import parse_moment as read_moment
from app.templating import source_label

# A "+" left unencoded in a hand-made URL arrives as a space: read it as the plus it was.
MOMENT = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)"
                    r"(Z|[+\- ]\d{2}:?\d{2})?")
ZERO = ("+00:00", "-00:00")
OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})")


def _offset_label(minutes: int) -> str:
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


FIXED = tuple(_offset_label(hours * 60) for hours in range(-12, 15) if hours)


def zone_choices(current: str | None = None) -> list:
    """Budapest time, UTC, then whole-hour offsets (and an unusual current offset)."""
    home = company_zone_name()
    label = str(_l("Budapest time")) if home == DEFAULT_TIMEZONE else home
    choices = [(home, label)] + ([("UTC", "UTC (+00:00)")] if home != "UTC" else [])
    choices += [(offset, f"UTC{offset}") for offset in FIXED]
    if current and OFFSET.fullmatch(current) and current not in FIXED:
        choices.append((current, f"UTC{current}"))
    return select_choices(choices)


def split_moment(raw: str) -> tuple[str, str | None]:
    """(local part, offset) of a value; offset None when the value carries none."""
    match = MOMENT.fullmatch((raw or "").strip())
    if not match or not match.group(3):
        return raw, None
    offset = match.group(3).replace(" ", "+")
    offset = "UTC" if offset == "Z" else _normal_offset(offset)
    return f"{match.group(1)}T{match.group(2)}", "UTC" if offset in ZERO else offset


def _normal_offset(offset: str) -> str:
    sign, hours, minutes = OFFSET.fullmatch(offset).groups()
    return f"{sign}{hours}:{minutes}"


def parse_moment(raw: str | None, zone: str | None) -> datetime | None:
    """An aware datetime from a date-time typed in the page's language (or ISO 8601, perhaps
    with its own offset) and a zone name or offset; None when blank, InputError when refused."""
    local, offset = split_moment((raw or "").strip())
    moment = read_moment(local)
    return moment.replace(tzinfo=zone_info(offset or zone)) if moment else None


def zone_info(zone: str | None) -> tzinfo:
    """The tzinfo of a zone name (the company's, UTC) or a ±HH:MM offset; the company's by
    default."""
    if zone in (None, "", "UTC", "+00:00"):
        return UTC if zone else company_zone()
    match = OFFSET.fullmatch(zone)
    if match:
        sign, hours, minutes = match.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes))
        return timezone(-delta if sign == "-" else delta)
    return company_zone()


# Which filter field an upstream error about a query parameter belongs to.
FIELD_OF = {"updated_since": "since", "from_date": "created_from", "to_date": "created_to",
            "min_amount": "min_amount", "max_amount": "max_amount", "search": "q",
            "is_paid": "is_paid", "is_installment": "is_installment"}


class FilterForm(ListFilterForm):
    """The list filters."""

    modifiers = ("tz", "date_field")
    q = StringField(_l("Search"), render_kw={"type": "search", "placeholder": _l(
        "Invoice number, partner, custom field")})
    is_paid = SelectField(_l("Paid"), choices=select_choices([ANY, ("true", _l("Paid")),
                                                              ("false", _l("Not paid"))]))
    is_installment = SelectField(_l("Partially paid"), choices=select_choices([
        ANY, ("true", _l("Partially paid")), ("false", _l("Not partially paid"))]))
    since = StringField(_l("Changed since"), render_kw={"type": "datetime-local"})
    tz = SelectField(_l("Time zone"), choices=zone_choices)
    date_field = SelectField(_l("Date"), choices=[
        SelectChoice("created_at", _l("Created")), SelectChoice("issued_at", _l("Issue date")),
        SelectChoice("fulfilled_at", _l("Fulfilment date")),
        SelectChoice("due_at", _l("Due date"))])
    created_from = StringField(_l("From"), render_kw={"type": "date"})
    created_to = StringField(_l("To"), render_kw={"type": "date"})
    min_amount = StringField(_l("Gross at least"), render_kw={"inputmode": "decimal"})
    max_amount = StringField(_l("Gross at most"), render_kw={"inputmode": "decimal"})


def filter_form(args: MultiDict) -> FilterForm:
    """The filter form bound to the URL arguments (an offset inside `since` picks the zone)."""
    data = MultiDict(args)
    local, offset = split_moment(data.get("since", ""))
    if offset:
        data["since"], data["tz"] = local, offset
    form = FilterForm(formdata=data)
    form.tz.choices = zone_choices(form.tz.data)
    if not form.tz.data:
        form.tz.data = company_zone_name()
    return form


def api_params(form: FilterForm, args: MultiDict) -> dict | None:
    """GET /2/expenses parameters; None (with errors on the form) when an input is invalid."""
    params = {"search": search_text(form.q.data), "is_paid": choice(form.is_paid),
              "is_installment": choice(form.is_installment)}
    created = ((form.created_from, "from_date"), (form.created_to, "to_date"))
    checks = (_since(form, params), days(created, params, choice(form.date_field) or "created_at"),
              _amounts(form, params))
    if not all(checks):
        return None
    params["page_size"] = page_size(args)
    params["cursor"] = args.get("cursor") or None
    if is_overdue_tab(args):
        if not overdue_fits(form, params, (form.is_paid, params["is_paid"] == "true",
                                           OVERDUE_UNPAID)):
            return None
        overdue(params, args)
    return compact(params)


def overdue(params: dict, args: Mapping) -> None:
    """Narrow params to unpaid expenses due before today, most days overdue first
    (forms.filters.overdue_dates); numbered pages: the API pages an ordered list by number."""
    overdue_dates(params)
    params.pop("cursor", None)
    params.update(is_paid="false", page=page_number(args))


def machine_args(form: FilterForm) -> dict:
    """The typed "changed since" in the form URLs keep (2024-03-05T14:30, the zone in tz), so
    a copied link reads the same in every language; {} when blank or refused."""
    try:
        moment = read_moment(split_moment((form.since.data or "").strip())[0])
    except InputError:
        return {}
    return {"since": moment_key(moment), "tz": form.tz.data} if moment else {}


def _since(form: FilterForm, params: dict) -> bool:
    try:
        moment = parse_moment(form.since.data, form.tz.data)
    except InputError as error:
        form.since.errors = [error.message]
        return False
    if moment is not None:
        params["updated_since"] = moment.isoformat()
    return True


def _amounts(form: FilterForm, params: dict) -> bool:
    fields = (form.min_amount, form.max_amount)
    values = amounts(fields)
    params.update({f.name: str(a) for f, a in zip(fields, values, strict=True) if a is not None})
    return not any(field.errors for field in fields)


def read_params(args: MultiDict) -> dict | None:
    """GET /2/expenses parameters of the list at these URL arguments, read as the list reads
    them."""
    return api_params(filter_form(args), args)


def list_query(args: Mapping) -> ListQuery:
    """The expense list at these URL arguments: its link and the upstream query of its rows."""
    return ListQuery.of("expenses.index", read_params, args)


NOT_EDITED_HERE = ("excluded_from_accounting", "net_amount", "vat_amount", "gross_amount")
# An uploaded expense has no invoice number until someone types it: not required here.
OPTIONAL = {"invoice_number": variant("invoice_number", required=False)}
EDIT_FIELDS = tuple(OPTIONAL.get(name, name) for name in EXPENSE_FIELDS
                    if name not in NOT_EDITED_HERE)
LEDGER = "assignments.ledger_number"


def edit_form(expense: dict, settings: dict, catalogs: dict):
    """The expense's edit form (partner search through this area's endpoint)."""
    return build_edit_form(expense, catalogs, company=settings, fields=EDIT_FIELDS,
                           assignment_fields=EXPENSE_ASSIGNMENT_FIELDS,
                           search_url=url_for("incomes.partner_options"),
                           totals_url=url_for("incomes.totals"))


def refuses_empty_list(form, body: dict) -> bool:
    """True (with the message on the table) when the PATCH would empty the assignments."""
    if "assignments" not in body or body["assignments"]:
        return False
    message = _("Keep at least one cost categorisation row: an expense cannot be left without "
                "one.")
    form.row_errors.setdefault("assignments", {})[-1] = [message]
    form.form_errors.append(message)
    return True


def frozen_ledger(expense: dict) -> str | None:
    """Why the assignments' ledger number cannot change (spec 4.3 rule 4), else None."""
    editable = expense.get("editable_fields") or []
    if not expense.get("assignments") or LEDGER in editable:
        return None
    source = expense.get("source")
    if source not in MANUAL_SOURCES:
        return _("The ledger number is frozen: this expense was synced from %(source)s.",
                 source=source_label(source))
    if expense.get("checked"):
        return _("The ledger number is frozen: this expense is checked.")
    return None


def lock_note(form, expense: dict) -> str | None:
    """The record-wide reason for the top of the form; a checked expense freezes only ledgers."""
    return None if record_state(expense) == "checked" else form.lock_summary()

