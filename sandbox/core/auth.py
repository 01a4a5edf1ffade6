"""Token authentication, company selection and roles (spec part 5)."""
from __future__ import annotations

from flask import Flask, current_app, g, request

from sandbox.company.model import ApiToken, Company, hash_token
from sandbox.core.db import db
from sandbox.core.errors import ApiError

COMPANY_HEADERS = ("Service-Company-Id", "Quick-Company-Id")
TWO_FACTOR_TEXT = ("Two-factor authentication is required by this company; "
                   "enable it for your user to use the API.")


def init_app(app: Flask) -> None:
    """Authenticate every /1/ and /2/ request before its view runs."""
    app.before_request(_authenticate)


def _authenticate() -> None:
    if request.url_rule is None or not request.path.startswith(("/1/", "/2/")):
        return
    g.application = request.headers.get("X-Application", "")
    # sandbox/oauth installs a Bearer check; it answers True when it took the request.
    bearer = current_app.extensions.get("sandbox_bearer")
    if bearer is not None and bearer():
        return
    token = _read_token()
    row = db().query(ApiToken).filter_by(token_hash=hash_token(token)).one_or_none()
    if row is None:
        raise ApiError(401, "Invalid token.")
    _check_company_header(row)
    if row.company.requires_2fa and not row.user_has_2fa:
        raise ApiError(403, TWO_FACTOR_TEXT)
    g.api_token = row
    g.company = row.company


def _read_token() -> str:
    header = request.headers.get("Authorization", "")
    kind, _, value = header.partition(" ")
    if not header:
        raise ApiError(401, "Authentication credentials were not provided.")
    if kind != "Token" or not value.strip() or " " in value.strip():
        raise ApiError(401, "Invalid token header.")
    return value.strip()


def _check_company_header(row: ApiToken) -> None:
    for name in COMPANY_HEADERS:
        raw = request.headers.get(name)
        if raw is None or raw == "":
            continue
        if not raw.strip().isdecimal() or int(raw) != row.company_id:
            raise ApiError(403, "Company ID does not match")


def current_company() -> Company:
    """The company the authenticated token belongs to."""
    return g.company


def current_token() -> ApiToken:
    """The authenticated token row (role, user name)."""
    return g.api_token


def require_write() -> None:
    """Viewers may only read."""
    if g.api_token.role == "viewer":
        raise ApiError(403, "You do not have permission to perform this action.")


def require_admin() -> None:
    """Only administrators change company settings."""
    if g.api_token.role != "admin":
        raise ApiError(403, "You do not have permission to perform this action.")
