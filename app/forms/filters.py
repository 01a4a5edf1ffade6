"""What a URL says: typed URL parameters, and every list's filters read from them.

Every list and page reads its query parameters through the typed readers (`whole`, `arg_int`,
`arg_page`, ...), so `?partner=abc`, a 40-digit id or `page=NaN` is answered with a 400 page
saying which parameter is wrong, never a 500 and never a request to the accounting service.
Sizes are checked before any view (or the CSRF check) reads the request (init_app): every query
value, and a body that is not multipart (Flask's MAX_FORM_MEMORY_SIZE covers only multipart
fields, so an urlencoded body is held to that size as a whole).

An area's filter module declares its form on ListFilterForm and builds its API parameters with
these helpers: page and page size from the URL, a valid select choice, date ranges and amounts
with their errors on the fields, and the empty values left out.

A list's filter is also one object, ListQuery: the list's link and the upstream query behind a
count both come from it, so a number shown somewhere and the list it opens cannot disagree. It
holds the URL arguments of a list and the list's own reader (URL arguments -> upstream
parameters, the very function the list view uses). A dashboard card counts with `params()` and
links with `url()`; the list, opened by that link, reads the same arguments with the same
reader. Areas give their query builders: `app/incomes/forms.py` (`list_query`),
`app/expenses/forms.py` (`list_query`), `app/review/forms.py` (`queue_query`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from flask import Flask, current_app, request, url_for
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest
from wtforms import Field, SelectField
from wtforms.fields.choices import SelectChoice

from app.forms.display import option_value
from app.numbers import InputError, company_today, parse_amount, parse_date
from app.upstream.errors import MACHINE_KEYS, upstream_text

MAX_ID = 2**63 - 1
# No list has this many pages; a larger number is a typing error, not a page.
MAX_PAGE = 1_000_000
ASCII_DIGITS = re.compile(r"[0-9]+")
# Every number of up to 18 digits fits a BIGINT.
ID_DIGITS = 18


class BadParameter(BadRequest):
    """A URL parameter that cannot be read; `message` tells the user which and why."""

    def __init__(self, message):
        super().__init__(description=message)
        self.message = message


def init_app(app: Flask) -> None:
    """Refuse long query values and large non-multipart bodies (call before CSRF is set up)."""
    app.before_request(_refuse_oversized_query)
    app.before_request(_limit_plain_body)


def _limit_plain_body() -> None:
    config = current_app.config
    limits = [size for size in (config["MAX_FORM_MEMORY_SIZE"], config["MAX_CONTENT_LENGTH"])
              if size is not None]
    if limits and request.mimetype != "multipart/form-data":
        request.max_content_length = min(limits)


def _refuse_oversized_query() -> None:
    limit = int(current_app.config["QUERY_VALUE_MAX_LENGTH"])
    for name, value in request.args.items(multi=True):
        if len(value) > limit or len(name) > limit:
            raise BadParameter(_l("The address holds a value longer than %(max)s characters "
                                  "(parameter “%(name)s”).", max=limit, name=name[:40]))


def whole(value, name: str, *, minimum: int = 0, maximum: int = MAX_ID) -> int | None:
    """A whole number written with ASCII digits, None when empty; BadParameter otherwise."""
    text = "" if value is None else str(value).strip()
    if not text:
        return None
    if not ASCII_DIGITS.fullmatch(text):
        raise BadParameter(_l("The parameter “%(name)s” must be a whole number.",
                              name=name))
    # Longer than the maximum is out of range; int() is not asked to read 20,000 digits.
    number = int(text) if len(text.lstrip("0")) <= len(str(maximum)) else maximum + 1
    if not minimum <= number <= maximum:
        raise BadParameter(_l("The parameter “%(name)s” must be between %(min)s and "
                              "%(max)s.", name=name, min=minimum, max=maximum))
    return number


def small_int(text) -> int | None:
    """The number a string of at most 18 ASCII digits writes, else None: for ids and row
    indexes posted by forms, where anything else is simply not one."""
    text = "" if text is None else str(text)
    return int(text) if len(text) <= ID_DIGITS and ASCII_DIGITS.fullmatch(text) else None


def arg_int(args: MultiDict, name: str, default: int | None = None, *, minimum: int = 0,
            maximum: int = MAX_ID) -> int | None:
    """The URL argument `name` as a whole number in range, default when absent or empty."""
    number = whole(args.get(name), name, minimum=minimum, maximum=maximum)
    return default if number is None else number


def arg_id(args: MultiDict, name: str = "id") -> int | None:
    """A record id from the URL (1 or more), None when absent."""
    return arg_int(args, name, minimum=1)


def arg_page(args: MultiDict, name: str = "page") -> int:
    """The page number from the URL, 1 when absent."""
    return arg_int(args, name, 1, minimum=1, maximum=MAX_PAGE)


def arg_choice(args: MultiDict, name: str, choices: Iterable[str], default: str | None = None):
    """The URL argument when it is one of choices, default when absent or empty."""
    value = args.get(name)
    if value in (None, ""):
        return default
    if value not in set(choices):
        raise BadParameter(_l("The parameter “%(name)s” has a value this page does "
                              "not know.", name=name))
    return value


PAGE_SIZES = (20, 50, 100)
DEFAULT_PAGE_SIZE = 50
ANY = SelectChoice("", _l("Any"))
DATE_FIELDS = ("issued_at", "fulfilled_at", "due_at")
Reader = Callable[[MultiDict], "dict | None"]
# Arguments that say which slice of the list is shown, not which rows belong to it.
PAGING = ("page", "cursor")


class ListFilterForm(FlaskForm):
    """A list's filters (GET, no CSRF: reading only)."""

    class Meta:
        csrf = False

    # Fields that only shape another filter (which date, which zone): they narrow nothing.
    modifiers: tuple[str, ...] = ()

    def is_filtered(self) -> bool:
        """True when any filter narrows the list."""
        return any(field.data for field in self if field.name not in self.modifiers)


def date_field_select() -> SelectField:
    """The select of which document date a date range filters on."""
    return SelectField(_l("Date"), choices=[
        SelectChoice("issued_at", _l("Issue date")),
        SelectChoice("fulfilled_at", _l("Fulfilment date")),
        SelectChoice("due_at", _l("Due date"))])


def date_field_of(field: Field) -> str:
    """The chosen document date, issue date when the URL names another."""
    return field.data if field.data in DATE_FIELDS else "issued_at"


def digits(value, name: str) -> int | None:
    """A record id from the URL argument `name`, None when empty (400 when malformed)."""
    return whole(value, name, minimum=1)


def page_number(args: MultiDict) -> int:
    """The page from the URL, 1 when absent (400 when malformed)."""
    return arg_page(args)


def page_size(args: MultiDict) -> int:
    """The page size from the URL, one of PAGE_SIZES (400 when malformed)."""
    size = arg_int(args, "page_size")
    return size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE


def choice(field: SelectField) -> str | None:
    """The select's value when it is one of its choices, else None."""
    return field.data if field.data in {option_value(c) for c in field.choices} else None


def days(pairs: Iterable[tuple[Field, str]], params: dict, date_field: str) -> bool:
    """Each (field, API key) day into params with date_field; False when one is not a date."""
    ok = True
    for field, key in pairs:
        try:
            day = parse_date(field.data)
        except InputError as error:
            field.errors = [error.message]
            ok = False
            continue
        if day:
            params[key], params["date_field"] = day.isoformat(), date_field
    return ok


def amounts(fields: Iterable[Field]) -> list[Decimal | None]:
    """Each field's amount (None when empty); a refused one gets its message on the field."""
    values = []
    for field in fields:
        try:
            values.append(parse_amount(field.data))
        except InputError as error:
            field.errors = [error.message]
            values.append(None)
    return values


def compact(params: dict) -> dict:
    """params without the empty values."""
    return {key: value for key, value in params.items() if value not in (None, "")}


@dataclass(frozen=True)
class ListQuery:
    """The URL arguments of a list (endpoint) and the reader that turns them into API params."""

    endpoint: str
    args: tuple[tuple[str, str], ...]
    reader: Reader

    @classmethod
    def of(cls, endpoint: str, reader: Reader, args: Mapping) -> ListQuery:
        """A query from URL arguments (a dict or a MultiDict); empty values left out."""
        pairs = MultiDict(args).items(multi=True)
        return cls(endpoint, tuple((k, str(v)) for k, v in pairs if v not in (None, "")),
                   reader)

    def multidict(self) -> MultiDict:
        """The arguments as the list view reads them from its URL."""
        return MultiDict(list(self.args))

    def params(self) -> dict | None:
        """The upstream parameters the list sends for these arguments; None when invalid."""
        return self.reader(self.multidict())

    def url(self, endpoint: str | None = None) -> str:
        """The list's URL (or another endpoint's, e.g. its export) with these arguments."""
        return url_for(endpoint or self.endpoint, **self.multidict().to_dict(flat=False))


def filter_args(args: MultiDict) -> MultiDict:
    """The request's arguments without the paging ones: what an export of the list carries."""
    return MultiDict([(k, v) for k, v in args.items(multi=True) if k not in PAGING])


OVERDUE_TAB = "overdue"
OVERDUE_BY_DUE_DATE = _l("The Overdue tab filters by due date: choose the due date here, or "
                         "leave the dates empty.")
OVERDUE_UNPAID = _l("The Overdue tab lists unpaid and partly paid documents only.")


def is_overdue_tab(args: Mapping) -> bool:
    """True on the Overdue tab (?tab=overdue)."""
    return args.get("tab") == OVERDUE_TAB


def overdue_fits(form, params: dict, *conflicts: tuple[Field, bool, str]) -> bool:
    """Whether the filter can narrow the Overdue tab: its dates are due dates and none of the
    (field, conflict, message) holds; else the messages are on the fields that ask for what
    the tab never lists (the tab keeps every filter, it never drops one)."""
    dated = params.get("from_date") or params.get("to_date")
    by_other_date = bool(dated) and params.get("date_field") != "due_at"
    refused = [(field, message) for field, conflict, message
               in ((form.date_field, by_other_date, OVERDUE_BY_DUE_DATE), *conflicts) if conflict]
    for field, message in refused:
        field.errors = [*field.errors, str(message)]
    return not refused


def overdue_dates(params: dict) -> None:
    """Due before today in the company's zone, most days overdue first; a due-date range
    still narrows it (overdue_fits has refused any other date range)."""
    yesterday = (company_today() - timedelta(days=1)).isoformat()
    params["to_date"] = min(params.get("to_date") or yesterday, yesterday)
    params.update(date_field="due_at", ordering="due_at")


def list_tabs(list_query: Callable[[Mapping], ListQuery], args: MultiDict) -> list[tuple]:
    """(label, URL, current) of a list's tabs, every record and the overdue ones, each keeping
    the filter (and leaving the paging behind)."""
    kept = filter_args(args)
    kept.pop("tab", None)
    overdue = is_overdue_tab(args)
    return [(_l("All"), list_query(kept).url(), not overdue),
            (_l("Overdue"), list_query(MultiDict([*kept.items(multi=True),
                                                  ("tab", OVERDUE_TAB)])).url(), overdue)]


# The largest id the accounting service's and our own SQL integer columns (BIGINT) hold.


def place_upstream(form, error, field_of: Mapping[str, str]) -> list[str]:
    """Put an upstream 400 about a list's query on its filter fields (field_of: API parameter
    -> form field); the rest comes back as text for the list's message box."""
    rest = [upstream_text(m) for m in error.non_field_errors]
    for key, messages in error.field_errors.items():
        name = field_of.get(key)
        if name is None:
            rest.extend(upstream_text(m) for m in messages if key not in MACHINE_KEYS)
            continue
        form[name].errors = [*form[name].errors, *(upstream_text(m) for m in messages)]
    return rest
