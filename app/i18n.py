"""Hungarian and English: locale choice, /lang/<code>, the formatting filters (app/numbers.py)."""
from __future__ import annotations

import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, Flask, abort, current_app, redirect, request, session
from flask_babel import Babel, get_locale

from app.config import data_dir
from app.nav import safe_next
from app.numbers import (
    format_amount,
    format_date,
    format_datetime,
    format_number,
    format_percent,
    format_relative,
)

bp = Blueprint("i18n", __name__)
babel = Babel()


def init_app(app: Flask) -> None:
    """Set up Flask-Babel with the translations folder, the filters and /lang/<code>."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", app.config["DEFAULT_LOCALE"])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", data_dir("translations"))
    compile_catalogs(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.filters.update(money=format_amount, number=format_number, date=format_date,
                                 datetime=format_datetime, ago=format_relative,
                                 percent=format_percent)
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
