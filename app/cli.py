"""The `bookdesk` console script (demo, serve, sandbox) and readying a serving process.

The `bookdesk` console script: demo, serve, sandbox.

Production (several workers, sessions in Redis so every worker sees them):

    export BOOKDESK_SECRET_KEY=... BOOKDESK_UPSTREAM_URL=https://api.example
    export BOOKDESK_SESSION_REDIS_URL=redis://localhost:6379/0
    gunicorn -w 4 --threads 8 -b 0.0.0.0:8000 'app.cli:production_app()'

`bookdesk serve` does the same with gunicorn when it is installed (werkzeug otherwise).
This is the only module of `app/` allowed to import `sandbox/` (for `demo` and `sandbox`).

Ready a serving process before its first request: load what every page needs, then take the
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
import os
import socket
import sys
import threading
import time
from pathlib import Path

import click
from babel import Locale
from flask import Flask
from flask_babel import force_locale, get_translations

from app import ENV_PREFIX, ConfigError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Bookdesk: a web frontend for bookkeepers, and the upstream API sandbox."""


@main.command()
@click.option("--port", default=5000, show_default=True, help="Port for Bookdesk.")
@click.option("--sandbox-port", default=8001, show_default=True, help="Port for the sandbox.")
@click.option("--reset", is_flag=True,
              help="Start from clean Bookdesk records: no policy history, review log, "
                   "one-time keys or sessions.")
def demo(port: int, sandbox_port: int, reset: bool) -> None:
    """Run the sandbox with demo data and Bookdesk against it, both on 127.0.0.1."""
    from app import create_app

    host = "127.0.0.1"
    upstream = f"http://{host}:{sandbox_port}"
    app = _create_or_exit(create_app, {"DEMO": True, "UPSTREAM_URL": upstream})
    if reset:
        reset_records(app)
        click.echo("Cleared Bookdesk records: policy history, review log, one-time keys, sessions.")
    db_path = str(Path(app.instance_path) / "sandbox-demo.sqlite3")
    _start_sandbox_thread(host, sandbox_port, db_path, port)
    _print_demo_banner(f"http://{host}:{port}/", upstream, app.config["DEMO_USERS"])
    warm(app)
    app.run(host=host, port=port, threaded=True, use_reloader=False)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option("--workers", default=2, show_default=True, help="gunicorn worker processes.")
@click.option("--threads", default=8, show_default=True, help="Threads per worker.")
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Run the frontend only; the upstream comes from BOOKDESK_UPSTREAM_URL."""
    from app import create_app

    if not os.environ.get(f"{ENV_PREFIX}_UPSTREAM_URL"):
        raise click.ClickException(f"{ENV_PREFIX}_UPSTREAM_URL is required for `serve`.")
    app = _create_or_exit(create_app, None)
    if workers > 1 and not app.config.get("SESSION_REDIS_URL"):
        click.echo("Note: sessions are files in the instance folder; fine for one machine. "
                   f"Set {ENV_PREFIX}_SESSION_REDIS_URL to share them between machines.")
    try:
        _run_gunicorn(host, port, workers, threads)
    except ImportError:
        app.run(host=host, port=port, threaded=True, use_reloader=False)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8001, show_default=True)
@click.option("--db", "db_path", default=None, help="SQLite file (default: in memory).")
@click.option("--seed", type=click.Choice(["demo", "empty"]), default="demo", show_default=True)
def sandbox(host: str, port: int, db_path: str | None, seed: str) -> None:
    """Run the upstream API sandbox on its own."""
    from sandbox.core.server import run

    click.echo(f"Sandbox ({seed} data) on http://{host}:{port}/")
    run(host=host, port=port, db_path=db_path, seed=seed)


def reset_records(app) -> None:
    """Delete Bookdesk's own records and every server-side session of `app`."""
    from app.auth.session import clear_all_sessions
    from app.store.db import clear_records, current_store

    with app.app_context():
        clear_records(current_store())
    clear_all_sessions(app)


def _create_or_exit(create_app, overrides):
    try:
        return create_app(overrides)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


def _start_sandbox_thread(host: str, port: int, db_path: str, bookdesk_port: int) -> None:
    from sandbox.core.server import run
    from sandbox.oauth.seed import DEMO_PORT_VARIABLE

    # The demo client must take the callback on Bookdesk's own port, not only on 5000.
    os.environ[DEMO_PORT_VARIABLE] = str(bookdesk_port)
    thread = threading.Thread(target=run, args=(host, port, db_path, "demo"),
                              name="sandbox", daemon=True)
    thread.start()
    if not _wait_for_port(host, port, timeout=30):
        raise click.ClickException(f"The sandbox did not start on {host}:{port}.")


def _wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def _print_demo_banner(frontend: str, upstream: str, users: dict) -> None:
    click.echo("")
    click.secho("Bookdesk demo", bold=True)
    click.echo(f"  Bookdesk: {frontend}")
    click.echo(f"  Sandbox:  {upstream}/")
    click.echo("  Demo tokens (also one-click sign-in on the login page):")
    for key, user in users.items():
        company = user.get("company_id")
        click.echo(f"    {user['token']:<18} {key:<11} company {company}  ({user['name']})")
    click.echo("")
    sys.stdout.flush()


def _run_gunicorn(host: str, port: int, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    class _Gunicorn(BaseApplication):
        def load_config(self):
            settings = {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                        "accesslog": "-", "errorlog": "-"}
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            return production_app()

    _Gunicorn().run()


def production_app() -> Flask:
    """The app a production server runs: built from the environment (BOOKDESK_*), warmed."""
    from app import create_app

    return warm(create_app())


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


if __name__ == "__main__":
    main()
