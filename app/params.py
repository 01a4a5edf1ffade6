"""Reading URL parameters: typed readers that refuse a malformed value with a 400 and a message.

Every list and page reads its query parameters through these (app/forms/filters.py wraps them
for the list filters), so `?partner=abc`, a 40-digit id or `page=NaN` is answered with a 400
page saying which parameter is wrong, never a 500 and never a request to the accounting
service. Sizes are checked before any view (or the CSRF check) reads the request (init_app):
every query value, and a body that is not multipart (Flask's MAX_FORM_MEMORY_SIZE covers only
multipart fields, so an urlencoded body is held to that size as a whole).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from flask import Flask, current_app, request
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest

# The largest id the accounting service's and our own SQL integer columns (BIGINT) hold.
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
