"""What templates get: Jinja helpers, htmx responses, list cells formatted in Python, and the
labels of the API's enumerations that several areas show (income kind, payment state and method,
source), registered once for every template.

Small Jinja helpers behind the form and table macros.

Template strings are translated with the page's catalogue looked up once per render: Flask-Babel
looks up the request, the locale and the catalogue again for every `_()` in a template, and a
list page has a few hundred of them. Macros imported without context fall back to Flask-Babel.

htmx helpers: tell htmx requests apart, render a page or its fragment, redirect either way.

Table cells formatted in Python, once per page, for the long lists (incomes, expenses).

A 100-row page is over a thousand cells. A Jinja macro, a lazy-string lookup and a Babel
formatter per cell cost more than the page's whole overhead budget, so the lists build their
rows here: labels translated once per page (`Words`), each distinct date formatted once per
page (`Days`), amounts with the precomputed currency format (app/numbers.py).
"""
from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import urlencode

from flask import Flask, make_response, redirect, render_template, request
from flask_babel import get_locale, get_translations, gettext
from flask_babel import lazy_gettext as _l
from jinja2 import pass_context
from markupsafe import Markup

from app.identifiers import show_bank_account, show_tax_number
from app.numbers import (
    EXAMPLE_DAY,
    EXAMPLE_MOMENT,
    InputError,
    currency_format,
    format_date,
    format_moment,
    format_month,
    format_number,
    format_percent,
    parse_moment,
    to_decimal,
)
from app.upstream.parallel import missing_parts

EMPTY = "—"


def init_app(app: Flask) -> None:
    """Expose the helpers to templates."""
    app.jinja_env.globals.update(field_attrs=field_attrs, field_display=field_display,
                                missing_parts=missing_parts, day_input=day_input,
                                month_input=month_input, is_fragment=is_htmx,
                                kind_label=kind_label, paid_label=paid_label,
                                paid_badge=paid_badge, method_label=method_label)
    app.jinja_env.filters.update(tax_number=show_tax_number, account_number=show_bank_account,
                                 source_label=source_label, paid_label=paid_label,
                                 method_label=method_label, numbers_whole=numbers_whole)
    app.context_processor(lambda: {PAGE_TRANSLATIONS: get_translations()})
    app.jinja_env.install_gettext_callables(gettext=_template_gettext,
                                            ngettext=_template_ngettext, newstyle=True)


PAGE_TRANSLATIONS = "_page_translations"


def _translations(context):
    found = context.get(PAGE_TRANSLATIONS)
    return found if found is not None else get_translations()


@pass_context
def _template_gettext(context, string: str) -> str:
    return _translations(context).gettext(string)


@pass_context
def _template_ngettext(context, singular: str, plural: str, number: int) -> str:
    return _translations(context).ngettext(singular, plural, number)


def field_attrs(field, described: list[str], extra: dict, css_class: str) -> dict:
    """Input attributes: merged classes, aria-invalid, aria-describedby, required, extras."""
    attrs = dict(extra)
    kind = {**(getattr(field, "render_kw", None) or {}), **attrs}.get("type")
    if kind in TEXT_INPUTS:
        attrs.update(TEXT_INPUTS[kind](field._value() if hasattr(field, "_value") else field.data))
    classes = [css_class, attrs.pop("class_", None), attrs.pop("class", None)]
    attrs["class_"] = " ".join(c for c in classes if c)
    if field.errors:
        attrs["aria-invalid"] = "true"
    if described:
        attrs["aria-describedby"] = " ".join(described)
    return attrs


# Chromium draws <input type=date|month|datetime-local> in the browser's language, whatever
# the page says: a field declared with one of these types is typed as text in the page's
# language instead, shown as Babel writes it and read back by app/numbers.py (which also reads
# the machine forms URLs carry: 2024-03-05, 2024-03, 2024-03-05T14:30).


def day_input(raw) -> dict:
    """A day field: 2024. 03. 05. / Mar 5, 2024 (app.numbers.parse_date reads it back)."""
    shown = format_date(raw) if _ISO_DAY.fullmatch(str(raw or "")) else raw
    return _text_input(shown, format_date(EXAMPLE_DAY), 14, "data-day")


def month_input(raw) -> dict:
    """A month field: 2024. március / March 2024 (app.numbers.parse_month reads it back)."""
    shown = (format_month(str(raw)) or raw) if _ISO_MONTH.fullmatch(str(raw or "")) else raw
    return _text_input(shown, format_month(date(2024, 3, 1)), 14, "data-month")


def moment_input(raw) -> dict:
    """A date-and-time field: 2024. 03. 05. 14:30 / Mar 5, 2024, 2:30 PM (parse_moment)."""
    shown = raw
    if _ISO_MOMENT.fullmatch(str(raw or "")):
        # An impossible day or hour stays as it was typed, beside its error.
        with suppress(InputError):
            shown = format_moment(parse_moment(raw))
    return _text_input(shown, format_moment(EXAMPLE_MOMENT), 22, "data-moment")


def _text_input(shown, example: str, size: int, marker: str) -> dict:
    return {"type": "text", "value": shown or "", "lang": str(get_locale() or ""),
            "placeholder": gettext("e.g. %(example)s", example=example), "autocomplete": "off",
            marker: "", "size": size}


TEXT_INPUTS = {"date": day_input, "month": month_input, "datetime-local": moment_input}


def field_display(field) -> str:
    """The field's current value as text, for read-only mode."""
    if field.type == "BooleanField":
        return gettext("Yes") if field.data else gettext("No")
    if hasattr(field, "iter_choices"):
        chosen = [str(choice[1]) for choice in field.iter_choices() if choice[2]]
        return ", ".join(chosen) or EMPTY
    value = field._value() if hasattr(field, "_value") else field.data
    return str(value) if value not in (None, "") else EMPTY




MESSAGES_TARGET = "#messages"
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# Years from 1000: a shorter one would be shown unpadded ("1. január") and not read back.
_ISO_MONTH = re.compile(r"[1-9]\d{3}-\d{2}(?:-\d{2})?")
_ISO_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?")


def is_htmx() -> bool:
    """True for an htmx request that wants a fragment (not a history restore)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def render(page_template: str, fragment_template: str, **context) -> str:
    """Render the fragment for htmx requests and the full page otherwise.

    The page normally `{% include %}`s the fragment, so both show the same markup.
    """
    return render_template(fragment_template if is_htmx() else page_template, **context)


def push_machine_url(response, changes: dict):
    """Have htmx show the request's URL with `changes` (typed filter values in the form URLs
    keep, e.g. a month as 2024-03), so a copied address reads alike in every language."""
    args = request.args.copy()
    fresh = {key: value for key, value in changes.items() if value and args.get(key) != value}
    if fresh and is_htmx():
        for key, value in fresh.items():
            args[key] = value
        response.headers["HX-Push-Url"] = f"{request.path}?{urlencode(list(args.items(True)))}"
    return response


def redirect_to(location: str, code: int = 303):
    """Redirect a normal request, or tell htmx to load `location` as a full page."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = location
        return response
    return redirect(location, code=code)


def retarget_to_messages(response, swap: str = "innerHTML"):
    """Make htmx put this response into the page's message area instead of its own target."""
    response.headers["HX-Retarget"] = MESSAGES_TARGET
    response.headers["HX-Reswap"] = swap
    return response


def trigger(response, event: str, detail=None):
    """Ask htmx to fire `event` on the page after this response (HX-Trigger)."""
    import json

    response.headers["HX-Trigger"] = json.dumps({event: detail}) if detail is not None else event
    return response




# markupsafe's escaping, as one C-level pass; a Jinja {{ }} costs two Python calls per value.
_HTML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;",
                               "'": "&#39;"})


def td(css: str, text: str, tail: str = "") -> str:
    """One table cell as HTML: its text escaped, `tail` already markup."""
    return f'<td class="{css}">{text.translate(_HTML_ESCAPES)}{tail}</td>'


def cells(parts: list[str]) -> Markup:
    """Cells made by td() as one piece of markup for a template."""
    # Safe: td() escapes every text it is given, and its tails are markup made here.
    return Markup("".join(parts))  # noqa: S704  # nosec B704


# An account number (11700024-00000001) broken at a hyphen reads as two numbers; the word
# around it (its brackets) stays with it.
_JOINED_NUMBER = re.compile(r"\S*\d+(?:-\d+)+\S*")


def numbers_whole(text) -> Markup:
    """The text escaped, each hyphen-joined number in it kept on one line."""
    if isinstance(text, Markup):
        return text
    escaped = str(text).translate(_HTML_ESCAPES)
    # Safe: the text is escaped first; the spans are the only markup added.
    return Markup(_JOINED_NUMBER.sub(r'<span class="nowrap">\g<0></span>', escaped))  # noqa: S704  # nosec B704


def overdue_mark(label: str) -> str:
    """The overdue marker after a due date (its label read by screen readers)."""
    text = label.translate(_HTML_ESCAPES)
    return (f'<span class="overdue-mark" title="{text}"><span class="visually-hidden">{text}'
            '</span></span>')


def amount_cells(amounts) -> Markup:
    """Amount cells, red when negative."""
    return cells([td("num is-negative" if value.negative else "num", value.text)
                  for value in amounts])


def date_cells(dates, overdue: bool, mark: str) -> Markup:
    """Date cells; the last one, the due date, marked when overdue."""
    parts = [td("date", text) for text in dates[:-1]]
    parts.append(td("date is-overdue", dates[-1], mark) if overdue else td("date", dates[-1]))
    return cells(parts)


@dataclass(slots=True)
class Amount:
    """A formatted amount and whether it is negative (shown in red)."""

    text: str
    negative: bool = False


class Words:
    """The page's labels as plain strings, lazy ones translated once, not once per row; and
    its locale name (`locale`), for amount()."""

    def __init__(self, **labels) -> None:
        self.locale = str(get_locale())
        self._labels = {name: ({k: str(v) for k, v in value.items()}
                               if isinstance(value, dict) else str(value))
                        for name, value in labels.items()}

    def __getitem__(self, name: str):
        return self._labels[name]


def amount(value, code: str | None, locale: str) -> Amount:
    """An amount in a currency for a locale (code None: a plain number with two decimals)."""
    parsed = to_decimal(value)
    if parsed is None:
        return Amount("")
    text = (currency_format(locale, code.upper()).apply(parsed) if code
            else format_number(parsed, locale, places=2))
    return Amount(text, parsed < 0)


class Days(dict):
    """Dates formatted for the page's locale, each distinct one once."""

    def __init__(self, locale=None) -> None:
        super().__init__()
        self.locale = locale

    def __missing__(self, value) -> str:
        text = self[value] = format_date(value, self.locale)
        return text


# The income kinds (spec 2.2 "type"); expenses carry no kind.
KINDS = {1: _l("Invoice"), 2: _l("Accounting document"), 6: _l("Cash receipt"),
         7: _l("Collective receipt")}
PAID_STATUS = {1: _l("Unpaid"), 2: _l("Paid"), 3: _l("Partially paid")}
PAID_BADGE = {1: "warn", 2: "ok", 3: "attention"}
PAYMENT_METHODS = {"transfer": _l("Bank transfer"), "cash": _l("Cash"), "card": _l("Card"),
                   "cod": _l("Cash on delivery"), "cancel": _l("Cancellation")}

# Sources the upstream is known to write, as their owners spell them; an unknown integration
# is named as one, never shown as a bare code.
SOURCES = {"manual": _l("Entered by hand"), "api": _l("Through the API"), "nav": "NAV",
           "szamlazz.hu": "Számlázz.hu", "billingo": "Billingo", "kulcs-ber": "Kulcs-Bér",
           "nexon": "Nexon", "novitax": "Novitax"}


def source_label(source) -> str:
    """Where a record came from: by hand, the API, or the integration's own name."""
    if not source:
        return str(SOURCES["manual"])
    known = SOURCES.get(source) or SOURCES.get(str(source).lower())
    return str(known) if known else str(_l("Integration (%(code)s)", code=source))


def record_number(record: dict, field: str = "invoice_number") -> str:
    """A record as its lists name it: its number (an income's invoice number, an expense's
    filing number), or #id when it has none."""
    return record.get(field) or f"#{record['id']}"


def kind_label(kind) -> str:
    """An income's kind as words (type 1, 2, 6, 7)."""
    return str(KINDS.get(kind, kind))


def paid_label(status) -> str:
    """Unpaid, paid or partially paid."""
    return str(PAID_STATUS.get(status, status or ""))


def paid_badge(status) -> str:
    """The badge colour of a payment state."""
    return PAID_BADGE.get(status, "muted")


def method_label(method) -> str:
    """A payment method as words."""
    return str(PAYMENT_METHODS.get(method, method or "—"))


def vat_text(value: Any) -> str:
    """A VAT object as its name with the percent (a float since spec 9.5)."""
    if not isinstance(value, dict):
        return "—" if value in (None, "") else f"#{value}"
    name, percent = value.get("name") or "", value.get("percent")
    if percent is None or format_number(percent) in name:
        return name or f"#{value.get('id')}"
    return f"{name} ({format_percent(percent)})".strip()


@dataclass
class Section:
    """A titled list of (label, text) pairs: one field group of a record's detail page."""

    title: Any
    rows: list[tuple[Any, str]] = field(default_factory=list)
