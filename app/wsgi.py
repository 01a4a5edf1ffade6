"""The WSGI entry point for a production server: `gunicorn app.wsgi:application`.

The app is built from the environment (BOOKDESK_*) and warmed in each worker (`warm` in app/cli.py).
"""
from __future__ import annotations

from app import create_app
from app.cli import warm

application = warm(create_app())
