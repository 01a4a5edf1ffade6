"""Bookdesk: a server-rendered frontend for bookkeepers on top of the accounting data API."""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from app.config import ConfigError, data_dir, instance_path_from, load_config

__all__ = ["create_app", "ConfigError", "data_dir"]

def create_app(overrides: dict | None = None) -> Flask:
    """Build the Bookdesk application; `overrides` win over the environment."""
    app = _make_flask(instance_path_from(overrides))
    load_config(app, overrides)
    _ensure_instance_folder(app)
    _init_logging(app)
    _init_proxy(app)
    _init_params(app)
    _init_security(app)
    _init_sessions(app)
    _init_i18n(app)
    _init_upstream(app)
    _init_store(app)
    _init_errors(app)
    _init_templates(app)
    _init_assets(app)
    _init_compression(app)
    _register_areas(app)
    return app


def _make_flask(instance_path: str | None = None) -> Flask:
    return Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=data_dir("templates"),
        static_folder=data_dir("static"),
    )


def _ensure_instance_folder(app: Flask) -> None:
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)


def _init_logging(app: Flask) -> None:
    from app.security import init_logging

    init_logging(app)


def _init_proxy(app: Flask) -> None:
    if app.config["PROXY_COUNT"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        count = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)


def _init_security(app: Flask) -> None:
    from app.security import init_app

    init_app(app)


def _init_params(app: Flask) -> None:
    from app.forms.filters import init_app

    init_app(app)


def _init_sessions(app: Flask) -> None:
    from app.auth.session import init_app

    init_app(app)


def _init_i18n(app: Flask) -> None:
    from app.i18n import init_app

    init_app(app)


def _init_upstream(app: Flask) -> None:
    from app.upstream import init_app

    init_app(app)


def _init_store(app: Flask) -> None:
    from app.store import init_app

    init_app(app)


def _init_errors(app: Flask) -> None:
    from app.errors import init_app

    init_app(app)


def _init_templates(app: Flask) -> None:
    from app.templating import init_app

    init_app(app)


def _init_assets(app: Flask) -> None:
    from app.assets import init_app

    init_app(app)


def _init_compression(app: Flask) -> None:
    """Brotli, else gzip, for pages, fragments and downloads (settings in app/config.py)."""
    from flask_compress import Compress

    Compress(app)


def _register_areas(app: Flask) -> None:
    """Mount sign-in, navigation and every work area's blueprints."""
    from app import auth, nav

    nav.init_app(app)
    auth.init_app(app)
    for blueprint in _area_blueprints():
        app.register_blueprint(blueprint)


def _area_blueprints() -> list:
    from app import (
        bank,
        catalog,
        dashboard,
        expenses,
        exports,
        incomes,
        partners,
        policies,
        review,
        settings,
        taxes,
        vat,
    )

    return [*dashboard.blueprints, incomes.bp, review.bp, expenses.bp, bank.bp, partners.bp,
            *taxes.blueprints, vat.bp, *catalog.blueprints, settings.bp, policies.bp, exports.bp]
