"""Hungarian and English: locale choice, /lang/<code>, the formatting filters (app/numbers.py),
and text by locale: collation (ICU's, so Cs, Gy, Sz, Zs sort as letters and Ő comes after Ö, not
after Z) and the folding that makes search ignore case and accents."""
from __future__ import annotations

import os
import threading
import unicodedata
from pathlib import Path

import icu
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, abort, current_app, redirect, request, session
from flask_babel import Babel, get_locale

from app.nav import safe_next
from app.numbers import (
    currency_name,
    format_amount,
    format_date,
    format_datetime,
    format_number,
    format_percent,
    format_relative,
)

bp = Blueprint("i18n", __name__)
babel = Babel()
# ICU collators are built once per thread: a collator is not to be shared between threads.
_collators = threading.local()


def init_app(app: Flask) -> None:
    """Set up Flask-Babel (its settings come from app/__init__.py), the filters and /lang/<code>."""
    compile_catalogs(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.filters.update(money=format_amount, number=format_number, date=format_date,
                                 datetime=format_datetime, ago=format_relative,
                                 percent=format_percent)
    app.jinja_env.filters.update(collated=collated, currency_name=currency_name)
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


def collator(locale=None) -> icu.Collator:
    """The ICU collator of a locale (the page's by default), made once per thread."""
    name = str(locale or _page_locale())
    cache = _collators.__dict__.setdefault("by_locale", {})
    if name not in cache:
        cache[name] = icu.Collator.createInstance(icu.Locale(name))
    return cache[name]


def _page_locale() -> str:
    try:
        return str(get_locale() or current_app.config["DEFAULT_LOCALE"])
    except RuntimeError:  # outside a request and an app: Hungarian, the default language
        return "hu"


def collate_key(text, locale=None) -> bytes:
    """The sort key of a name by the locale's collation: sorted(names, key=collate_key)."""
    return collator(locale).getSortKey(str(text or ""))


def collated(items, attribute=None, locale=None) -> list:
    """Items sorted by a name (the item itself, or its key/attribute `attribute`)."""
    def name(item):
        if attribute is None:
            return item
        return item.get(attribute) if isinstance(item, dict) else getattr(item, attribute, "")
    return sorted(items, key=lambda item: collate_key(name(item), locale))


def fold(text) -> str:
    """Text for matching that ignores case and accents: "Őrség" and "orseg" fold alike."""
    decomposed = unicodedata.normalize("NFKD", str(text or "").casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def matches(needle, haystack) -> bool:
    """True when the needle occurs in the haystack, case and accents aside."""
    return fold(needle).strip() in fold(haystack)


def search_text(text) -> str:
    """A search typed by the user as the API should get it: NFC, trimmed, one space a gap."""
    return " ".join(unicodedata.normalize("NFC", str(text or "")).split())
