"""Ready a serving process before its first request: load what every page needs, then take the
long-lived heap out of the garbage collector's full passes.

A full (generation 2) collection walks every tracked object. After start-up that is the app, the
compiled templates, Babel's CLDR data and the translation catalogues, and the walk stopped a
100-row page for 30-50 ms on this machine (bench.page_cost's p95). `gc.freeze()` moves what
exists at that point into a permanent generation the collector skips; what requests allocate
is collected as before. Call it once per serving process, never from create_app: tests build
hundreds of apps, and a frozen one is never freed.

A page keeps thousands of small objects alive until it is rendered (rows, formatted cells), so
the default young-generation threshold of 700 ran several collections per list page, about
0.4 ms, to free nothing: reference counting frees them when the response is done.
"""
from __future__ import annotations

import gc

from babel import Locale
from flask import Flask
from flask_babel import force_locale, get_translations

YOUNG_THRESHOLD = 10_000


def warm(app: Flask) -> Flask:
    """Compile every template, load each locale's data and catalogue, then freeze the heap."""
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)
    with app.test_request_context():
        for code in app.config["LOCALES"]:
            Locale.parse(code).currency_formats  # noqa: B018 - loads the CLDR data
            with force_locale(code):
                get_translations()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return app
