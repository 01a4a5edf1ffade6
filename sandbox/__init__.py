"""The sandbox: a faithful emulator of the upstream accounting data API on SQLite."""
from __future__ import annotations

import importlib
import pkgutil

from flask import Flask
from werkzeug.routing import IntegerConverter

from . import auth, db, errors, faults, oauth, requestlog
from .models import Base

# Every module named api_*.py or controls*.py exposes a blueprint `bp`; they are found, not listed.
BLUEPRINT_PREFIXES = ("api_", "controls")

CURRENCIES = (("HUF", "Magyar forint"), ("EUR", "Euró"), ("USD", "Amerikai dollár"),
              ("GBP", "Angol font"), ("CHF", "Svájci frank"), ("CZK", "Cseh korona"),
              ("PLN", "Lengyel zloty"), ("RON", "Román lej"))


class RowIdConverter(IntegerConverter):
    """<int:...> path ids; beyond SQLite's 64-bit integers no row can exist, so 404, not 500."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(url_map, *args, **kwargs)


def create_app(db_url: str = "sqlite://", seed: str = "empty") -> Flask:
    """Build the sandbox API app on db_url, seeded with `empty` or `demo` data."""
    app = Flask(__name__)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.url_map.strict_slashes = False
    app.url_map.converters["int"] = RowIdConverter
    faults.init_app(app)
    requestlog.init_app(app)
    auth.init_app(app)
    db.init_app(app, db_url)
    errors.register_handlers(app)
    _register_blueprints(app)
    oauth.init_app(app)
    _create_schema(app, seed)
    return app


def _register_blueprints(app: Flask) -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith(BLUEPRINT_PREFIXES):
            app.register_blueprint(importlib.import_module(f"{__name__}.{info.name}").bp)


def _create_schema(app: Flask, seed: str) -> None:
    engine = app.extensions["sandbox_engine"]
    Base.metadata.create_all(engine)
    session = app.extensions["sandbox_sessionmaker"]()
    with session.begin():
        _seed_currencies(session)
        if seed == "demo":
            from .seed import seed_demo

            seed_demo(session)
    session.close()


def _seed_currencies(session) -> None:
    from .models import Currency

    if session.query(Currency).count() == 0:
        session.add_all([Currency(code=c, name=n) for c, n in CURRENCIES])
        session.flush()
