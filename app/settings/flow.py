"""The company object (app/upstream/company.py), its settings changes, and who may make them.

Only administrators may change settings; Bookdesk cannot know a token's role in advance, so the
first 403 of the API is remembered (the "admin" refusal of app/auth/flow.py) and the page turns
read-only with the reason.
"""
from __future__ import annotations

from app.auth import ADMIN, refusal
from app.auth import remember_refusal as remember
from app.forms import invalidate_settings
from app.upstream import company as company_api


def info(api) -> dict:
    """The company object, fresh from the API (this page must not show a stale cache)."""
    return company_api.info(api)


def update(api, company_id: int, body: dict) -> dict:
    """Change settings; every cached copy of them is dropped, so income forms follow at once."""
    try:
        return company_api.update(api, company_id, body)
    finally:
        invalidate_settings(company_id)


def read_only() -> bool:
    """True when the API already refused this token a settings change."""
    return refusal(ADMIN) is not None


def remember_refusal() -> None:
    """Remember that the API refused this token a settings change."""
    remember(ADMIN)
