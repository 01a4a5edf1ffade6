"""OAuth2 endpoints (authorize with its consent page, token, revoke) and the user's /2/ reads."""
from __future__ import annotations

from authlib.oauth2 import OAuth2Error
from flask import jsonify, request

from sandbox.oauth import consent
from sandbox.oauth.bearer import current_user
from sandbox.oauth.rules import server


def authorize():
    """GET shows the consent page; POST signs the chosen user in and answers the client."""
    try:
        grant = server().get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return server().handle_error_response(request, error)
    if request.method == "GET":
        return consent.render(grant)
    user = consent.chosen_user()
    if consent.allowed() and user is None:
        return consent.render(grant, error=True, status=400)
    granted = user if consent.allowed() else None
    return server().create_authorization_response(grant_user=granted, grant=grant)


def issue_token():
    """Exchange a code (with its PKCE verifier) or a refresh token for a token pair."""
    return server().create_token_response()


def revoke_token():
    """RFC 7009 revocation of an access or refresh token."""
    return server().create_endpoint_response("revocation")


def companies():
    """The companies the signed-in user may reach (Bearer only)."""
    reachable = [{"id": m.company_id, "name": m.company.name}
                 for m in current_user().memberships]
    return jsonify([{"companies": reachable}])


def user_profile():
    """The signed-in user's name and e-mail (Bearer only)."""
    user = current_user()
    return jsonify({"user": {"email": user.email, "first_name": user.first_name,
                             "last_name": user.last_name}})

