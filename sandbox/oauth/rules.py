"""The authorization server: code grant with mandatory S256 PKCE, refresh, revocation (Authlib).

Authlib does the protocol; this module only tells it where clients, codes and tokens live.
Every lookup goes through the request's session (sandbox/core/db.py), so a grant is one transaction
like any other sandbox request.
"""
from __future__ import annotations

import time

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import InvalidRequestError, grants
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, current_app

from sandbox.company.model import hash_token
from sandbox.core.db import db
from sandbox.oauth.model import AuthorizationCode, OAuthClient, OAuthToken, User

ACCESS_SECONDS = 3600
TOKEN_COLUMNS = ("access_token", "refresh_token")
SETTINGS = {
    "OAUTH2_REFRESH_TOKEN_GENERATOR": True,
    "OAUTH2_TOKEN_EXPIRES_IN": {"authorization_code": ACCESS_SECONDS,
                                "refresh_token": ACCESS_SECONDS},
}


def init_server(app: Flask) -> AuthorizationServer:
    """The app's authorization server with its grants and the revocation endpoint."""
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    server = AuthorizationServer(app, query_client=query_client, save_token=save_token)
    server.register_grant(CodeGrant, [S256Only(required=True)])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    app.extensions["sandbox_oauth"] = server
    return server


def server() -> AuthorizationServer:
    """The current app's authorization server."""
    return current_app.extensions["sandbox_oauth"]


def query_client(client_id: str) -> OAuthClient | None:
    """The registered client with this id."""
    return db().query(OAuthClient).filter_by(client_id=client_id).one_or_none()


def save_token(token: dict, request) -> None:
    """Store a freshly issued token pair as digests."""
    refresh = token.get("refresh_token")
    db().add(OAuthToken(client_id=request.client.client_id, user_id=request.user.id,
                        token_type=token["token_type"], scope=token.get("scope", ""),
                        access_token=hash_token(token["access_token"]),
                        refresh_token=hash_token(refresh) if refresh else None,
                        expires_in=token["expires_in"], issued_at=int(time.time())))
    db().flush()


def find_token(value: str, hint: str | None = None) -> OAuthToken | None:
    """The token row an access or refresh token (given in clear) belongs to."""
    digest = hash_token(value)
    # The hint only says where to look first (RFC 7009 2.1).
    for column in sorted(TOKEN_COLUMNS, key=lambda c: c != hint):
        row = db().query(OAuthToken).filter_by(**{column: digest}).first()
        if row is not None:
            return row
    return None


class S256Only(CodeChallenge):
    """PKCE on every authorization request, with the S256 method only."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        """Refuse an authorization request without an S256 code challenge."""
        data = grant.request.payload.data
        if not data.get("code_challenge") or data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("PKCE is required: send code_challenge with "
                                      "code_challenge_method=S256.")
        super().validate_code_challenge(grant, redirect_uri)


class CodeGrant(grants.AuthorizationCodeGrant):
    """Authorization codes stored in the sandbox database."""

    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def save_authorization_code(self, code, request):
        """Keep the code with the PKCE challenge it must be redeemed with."""
        data = request.payload.data
        db().add(AuthorizationCode(
            code=code, client_id=request.client.client_id, user_id=request.user.id,
            redirect_uri=request.payload.redirect_uri, scope=request.payload.scope or "",
            code_challenge=data.get("code_challenge"),
            code_challenge_method=data.get("code_challenge_method")))
        db().flush()

    def query_authorization_code(self, code, client):
        """The unexpired code issued to this client."""
        row = db().query(AuthorizationCode).filter_by(code=code,
                                                      client_id=client.client_id).one_or_none()
        return row if row is not None and not row.is_expired() else None

    def delete_authorization_code(self, authorization_code):
        """A code is redeemed once."""
        db().delete(authorization_code)
        db().flush()

    def authenticate_user(self, authorization_code):
        """The user who granted the code."""
        return db().get(User, authorization_code.user_id)


class RefreshGrant(grants.RefreshTokenGrant):
    """Refresh tokens rotate: each use issues a new pair and retires the old one."""

    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        """The token row of a refresh token that is still valid."""
        row = find_token(refresh_token, "refresh_token")
        return row if row is not None and row.is_refresh_token_valid() else None

    def authenticate_user(self, refresh_token):
        """The user the token was issued to."""
        return db().get(User, refresh_token.user_id)

    def revoke_old_credential(self, refresh_token):
        """Retire the used pair: its access token and refresh token stop working."""
        now = int(time.time())
        refresh_token.access_token_revoked_at = now
        refresh_token.refresh_token_revoked_at = now
        db().flush()


class Revocation(RevocationEndpoint):
    """RFC 7009: revoking either token of a pair retires the access token; a refresh token
    retires the pair."""

    CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def query_token(self, token_string, token_type_hint):
        """The row the token belongs to (unknown tokens are ignored, as the RFC says)."""
        return find_token(token_string, token_type_hint)

    def revoke_token(self, token, request):
        """Mark the access token, and the refresh token unless the hint names the access one."""
        now = int(time.time())
        token.access_token_revoked_at = now
        if request.form.get("token_type_hint") != "access_token":
            token.refresh_token_revoked_at = now
        db().flush()
