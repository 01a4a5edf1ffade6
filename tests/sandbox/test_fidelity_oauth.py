"""The OAuth2 user operations as the live API serves them: /2/companies and /2/user-profile
have the live key set and types (live-api-shapes.json)."""
from __future__ import annotations

from oauth_support import bearer, create_user, register_client, sign_in

from tests.sandbox.live_shapes import key_types, live_response, shape_problems


def _access(sandbox_url, company) -> str:
    user = create_user(sandbox_url, {company.id: "admin"}, first_name="Zita", last_name="Vass")
    return sign_in(sandbox_url, register_client(sandbox_url), user)["access_token"]


def test_companies_has_every_live_key_with_its_live_type(sandbox_url, company):
    body = bearer(sandbox_url, "/2/companies/", _access(sandbox_url, company)).json()
    # The live body is a list of objects; key_types reads a root list's items from the root.
    shape = live_response("GET", "/2/companies", rename={"[].": ""})
    assert shape.pop("[]") == "object"
    assert isinstance(body, list) and body and all(isinstance(item, dict) for item in body)
    assert shape_problems(body, shape) == []
    assert set(key_types(body)) == set(shape)


def test_user_profile_has_every_live_key_with_its_live_type(sandbox_url, company):
    body = bearer(sandbox_url, "/2/user-profile/", _access(sandbox_url, company)).json()
    shape = live_response("GET", "/2/user-profile")
    assert shape_problems(body, shape) == []
    assert set(key_types(body)) == set(shape)
