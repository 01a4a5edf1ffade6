"""`Authorization: Bearer <access token>` on the /2/ API, as the live service takes it.

A Bearer token belongs to a user, not to a company: the company header names the company, and
the user's membership there gives the role. /2/companies and /2/user-profile are about the user
and take nothing but a Bearer token. /1/ stays Token-only (the live description lists Bearer
for /2/ endpoints only).
"""
from __future__ import annotations

from dataclasses import dataclass

from authlib.integrations.flask_oauth2 import ResourceProtector
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6750 import BearerTokenValidator
from flask import g, request

from sandbox.company.model import Company
from sandbox.core.auth import COMPANY_HEADERS, TWO_FACTOR_TEXT
from sandbox.core.errors import ApiError
from sandbox.oauth.model import Membership, OAuthToken, User
from sandbox.oauth.rules import find_token

# Endpoints about the signed-in user rather than a company (sandbox/oauth/routes.py).
USER_ENDPOINTS = ("oauth.companies", "oauth.user_profile")
NO_COMPANY = "A Bearer token needs the company header (Quick-Company-Id or Service-Company-Id)."
NOT_MEMBER = "Company ID does not match"


@dataclass
class BearerIdentity:
    """What views read of an API token (sandbox/core/auth.py current_token), for a Bearer user."""

    role: str
    user_name: str
    user_has_2fa: bool
    company: Company
    company_id: int
    user: User


class _Validator(BearerTokenValidator):
    def authenticate_token(self, token_string):
        return find_token(token_string, "access_token")


protector = ResourceProtector()
protector.register_token_validator(_Validator())


def authenticate() -> bool:
    """Take a /2/ request with a Bearer header, or for a user endpoint; False leaves it to the
    Token check. Checks the token and, for company endpoints, the company header and membership."""
    if not _takes():
        return False
    token = _token()
    g.oauth_user = token.user
    if request.endpoint in USER_ENDPOINTS:
        return True
    membership = _membership(token.user)
    if membership.company.requires_2fa and not token.user.has_2fa:
        raise ApiError(403, TWO_FACTOR_TEXT)
    g.api_token = BearerIdentity(membership.role, token.user.full_name, token.user.has_2fa,
                                 membership.company, membership.company_id, token.user)
    g.company = membership.company
    return True


def _takes() -> bool:
    if not request.path.startswith("/2/"):
        return False
    kind = request.headers.get("Authorization", "").partition(" ")[0]
    return kind == "Bearer" or request.endpoint in USER_ENDPOINTS


def current_user() -> User:
    """The user a Bearer request was made for."""
    return g.oauth_user


def _token() -> OAuthToken:
    try:
        return protector.acquire_token()
    except OAuth2Error as error:
        text = "Invalid token." if error.error == "invalid_token" else \
            "Authentication credentials were not provided."
        raise ApiError(401, text, headers=dict(error.get_headers())) from None


def _membership(user: User) -> Membership:
    raw = next((request.headers[name] for name in COMPANY_HEADERS
                if request.headers.get(name, "").strip()), None)
    if raw is None:
        raise ApiError(403, NO_COMPANY)
    if not raw.strip().isdecimal():
        raise ApiError(403, NOT_MEMBER)
    found = next((m for m in user.memberships if m.company_id == int(raw)), None)
    if found is None:
        raise ApiError(403, NOT_MEMBER)
    return found
