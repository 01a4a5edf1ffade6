"""Hungarian and English: locale choice, /lang/<code>, formatting filters and tolerant parsers."""
from __future__ import annotations

import functools
import os
import re
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from flask import Blueprint, Flask, abort, current_app, redirect, request, session
from flask_babel import get_locale

from app.i18n_domain import RequestBabel
from app.money import currency_format
from app.nav import safe_next

bp = Blueprint("i18n", __name__)
babel = RequestBabel()

DATE_FORMATS = {"hu": "short", "en": "medium"}
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009\u2007']")


def init_app(app: Flask) -> None:
    """Set up Flask-Babel with the translations folder, the filters and /lang/<code>."""
    from app import data_dir

    app.config.setdefault("BABEL_DEFAULT_LOCALE", app.config["DEFAULT_LOCALE"])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", data_dir("translations"))
    compile_catalogs(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.filters.update(money=money, number=number, date=date_filter,
                                 datetime=datetime_filter)
    app.jinja_env.globals.update(current_locale=lambda: str(get_locale()),
                                 locales=app.config["LOCALES"])
    app.register_blueprint(bp)


def compile_catalogs(directory: str) -> None:
    """Compile .po files whose .mo is missing or older (a fresh checkout works without make)."""
    for po_path in Path(directory).glob("*/LC_MESSAGES/*.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        try:
            with po_path.open("rb") as po_file:
                # The locale gives the plural rule: the .po files carry no header.
                catalog = read_po(po_file, locale=po_path.parent.parent.name)
            # Written aside and renamed: parallel test workers may compile at the same time.
            partial_path = mo_path.with_suffix(f".mo.{os.getpid()}")
            with partial_path.open("wb") as mo_file:
                write_mo(mo_file, catalog)
            os.replace(partial_path, mo_path)
        except OSError:  # a read-only install ships compiled catalogs
            continue


def select_locale() -> str:
    """The user's choice in the session, else the browser's preference, else the default."""
    locales = current_app.config["LOCALES"]
    chosen = session.get("lang")
    if chosen in locales:
        return chosen
    return request.accept_languages.best_match(locales) or current_app.config["DEFAULT_LOCALE"]


@bp.get("/lang/<code>")
def switch_language(code: str):
    """Remember the language in the session and go back to the page the user came from."""
    if code not in current_app.config["LOCALES"]:
        abort(404)
    session["lang"] = code
    return redirect(safe_next(request.args.get("next")) or "/", code=303)


def _locale() -> Locale:
    return get_locale() or Locale.parse(current_app.config["DEFAULT_LOCALE"])


def _to_decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation:
        return None


def money(amount, currency_code: str | None = None) -> str:
    """Format an amount in a currency for the current locale (HUF without decimals)."""
    value = _to_decimal(amount)
    if value is None:
        return ""
    if not currency_code:
        return number(value, 2)
    return currency_format(str(_locale()), str(currency_code).upper()).apply(value)


def number(value, decimals: int | None = None) -> str:
    """Format a number with the locale's separators; `decimals` fixes the fraction digits."""
    dec = _to_decimal(value)
    if dec is None:
        return ""
    if decimals is None:
        return format_decimal(dec, locale=_locale())
    dec = dec.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(dec, format=fmt, locale=_locale(), decimal_quantization=True)


def _as_date(value) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def date_filter(value, fmt: str | None = None) -> str:
    """Format a date (or ISO string) per locale: hu short `2024. 03. 05.`, en medium."""
    day = _as_date(value)
    if day is None:
        return "" if not value else str(value)
    locale = _locale()
    return _format_day(day, fmt or DATE_FORMATS.get(locale.language, "medium"), locale)


@functools.lru_cache(maxsize=8192)
def _format_day(day: date, fmt: str, locale: Locale) -> str:
    # Babel takes ~12 µs a date and lists show the same few hundred days again and again.
    return format_date(day, fmt, locale=locale)


def datetime_filter(value, fmt: str = "short") -> str:
    """Format a timestamp (or ISO string) for the current locale."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    if value is None:
        return ""
    return format_datetime(value, fmt, locale=_locale())


def parse_decimal(text: str | None) -> Decimal | None:
    """Read `1 234,50`, `1234.50`, `1.234,50`, `1,234.50` (NBSP too); None if blank."""
    raw = _SPACES.sub("", str(text or "")).replace("\u2212", "-")
    if not raw:
        return None
    sign, digits = ("-" if raw[0] == "-" else "", raw[1:]) if raw[0] in "+-" else ("", raw)
    normal = _normalise_separators(digits)
    if normal is None or not re.fullmatch(r"\d+(\.\d+)?", normal):
        raise ValueError(f"Not a valid number: {text!r}")
    return Decimal(sign + normal)


def _normalise_separators(digits: str) -> str | None:
    """Decide which of ',' and '.' is the decimal mark; strip the grouping one."""
    if "," in digits and "." in digits:
        decimal_mark = "," if digits.rfind(",") > digits.rfind(".") else "."
    elif digits.count(",") == 1 or digits.count(".") == 1:
        decimal_mark = "," if "," in digits else "."
    else:
        decimal_mark = None
    group_mark = {",": ".", ".": ","}.get(decimal_mark) if decimal_mark else (
        "," if "," in digits else ".")
    whole, _sep, fraction = digits.rpartition(decimal_mark) if decimal_mark else (digits, "", "")
    if group_mark in whole and not re.fullmatch(r"\d{1,3}(" + re.escape(group_mark) + r"\d{3})+",
                                                whole):
        return None
    whole = whole.replace(group_mark, "")
    return f"{whole}.{fraction}" if decimal_mark else whole


def parse_date(text: str | None) -> date | None:
    """Read `2024.03.05.`, `2024. 03. 05.`, `2024-03-05`, `2024/03/05`; None if blank."""
    raw = _SPACES.sub("", str(text or "")).rstrip(".")
    if not raw:
        return None
    match = re.fullmatch(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", raw)
    if not match:
        raise ValueError(f"Not a valid date (expected YYYY-MM-DD): {text!r}")
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError as exc:
        raise ValueError(f"Not a valid date: {text!r}") from exc
