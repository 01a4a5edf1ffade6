"""OAuth2 helpers for tests: sandbox users and clients, and the authorization-code dance.

The sandbox is the authorization server (sandbox/oauth). `oauth_user` creates a user with a
role in each company given; `oauth_client` registers a confidential client for a redirect URI;
`consent` answers the sandbox's consent page for a user, as the browser would.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import requests


def oauth_user(sandbox_url: str, company_ids, role: str = "admin", **spec) -> dict:
    """A sandbox user with `role` in every company: {"id", "email"}."""
    body = {"first_name": "Oauth", "last_name": "Teszt",
            "companies": [{"id": cid, "role": role} for cid in company_ids], **spec}
    response = requests.post(f"{sandbox_url}/_sandbox/oauth/users/", json=body, timeout=10)
    response.raise_for_status()
    return response.json()


def oauth_client(sandbox_url: str, redirect_uri: str) -> dict:
    """A sandbox OAuth2 client for redirect_uri: {"client_id", "client_secret"}."""
    response = requests.post(f"{sandbox_url}/_sandbox/oauth/clients/",
                             json={"redirect_uris": [redirect_uri], "name": "Bookdesk (test)"},
                             timeout=10)
    response.raise_for_status()
    return response.json()


def consent(authorize_url: str, user_id: int, decision: str = "allow") -> str:
    """Show the consent page, choose the user and decide: the redirect back to the client."""
    page = requests.get(authorize_url, timeout=10)
    assert page.status_code == 200, page.text[:300]
    answer = requests.post(authorize_url, data={"user": str(user_id), "decision": decision},
                           allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text[:300]
    return answer.headers["Location"]


def query_of(url: str) -> dict[str, str]:
    """A URL's query parameters (first value of each)."""
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


def expire(sandbox_url: str, access_token: str) -> None:
    """Make an access token expired now on the sandbox (its refresh token still works)."""
    requests.post(f"{sandbox_url}/_sandbox/oauth/expire/", json={"token": access_token},
                  timeout=10).raise_for_status()
