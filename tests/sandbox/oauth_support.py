"""Driving the sandbox's OAuth2 server over HTTP like a browser and a client would."""
from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import requests

REDIRECT_URI = "http://127.0.0.1:9/callback"


@dataclass
class Client:
    """A registered OAuth2 client."""

    id: str
    secret: str


class ConsentForm(HTMLParser):
    """The consent page's form: its action and the users one may choose."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.action, self.users = None, []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        """Collect the form action and the radio buttons named `user`."""
        found = dict(attrs)
        if tag == "form":
            self.action = found.get("action")
        elif tag == "input" and found.get("name") == "user":
            self.users.append(found.get("value"))


def register_client(base: str) -> Client:
    """A fresh confidential client redirecting to REDIRECT_URI."""
    resp = requests.post(f"{base}/_sandbox/oauth/clients/",
                         json={"redirect_uris": [REDIRECT_URI], "name": "Test app"}, timeout=10)
    assert resp.status_code == 201, resp.text
    return Client(resp.json()["client_id"], resp.json()["client_secret"])


def create_user(base: str, roles: dict[int, str], **spec) -> int:
    """A user with a role in each company id given; its id."""
    body = {"companies": [{"id": cid, "role": role} for cid, role in roles.items()], **spec}
    resp = requests.post(f"{base}/_sandbox/oauth/users/", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def new_verifier() -> str:
    """A PKCE code verifier (43+ characters of the unreserved set)."""
    return secrets.token_urlsafe(48)


def s256(verifier: str) -> str:
    """The S256 code challenge of a verifier."""
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_url(base: str, client: Client, verifier: str | None, state: str = "st-1",
                  redirect_uri: str = REDIRECT_URI) -> str:
    """The authorization URL a client sends the browser to (with PKCE unless verifier is None)."""
    params = {"response_type": "code", "client_id": client.id, "redirect_uri": redirect_uri,
              "state": state}
    if verifier is not None:
        params |= {"code_challenge": s256(verifier), "code_challenge_method": "S256"}
    return requests.Request("GET", f"{base}/oauth/authorize/", params=params).prepare().url


def consent(base: str, url: str, user_id: int | None, decision: str = "allow",
            redirect_uri: str = REDIRECT_URI) -> dict:
    """Open the consent page, choose the user, press the button; the redirect's query."""
    with requests.Session() as browser:
        page = browser.get(url, timeout=10)
        assert page.status_code == 200, page.text
        form = ConsentForm(page.text)
        data = {"decision": decision}
        if user_id is not None:
            assert str(user_id) in form.users
            data["user"] = str(user_id)
        answer = browser.post(urljoin(url, form.action), data=data, allow_redirects=False,
                              timeout=10)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    assert location.startswith(redirect_uri)
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def token_request(base: str, client: Client, **form) -> requests.Response:
    """POST to the token endpoint with the client's credentials in the Basic header."""
    return requests.post(f"{base}/oauth/token/", data=form, auth=(client.id, client.secret),
                         timeout=10)


def sign_in(base: str, client: Client, user_id: int, redirect_uri: str = REDIRECT_URI) -> dict:
    """The whole code flow with PKCE: the token response."""
    verifier = new_verifier()
    url = authorize_url(base, client, verifier, redirect_uri=redirect_uri)
    code = consent(base, url, user_id, redirect_uri=redirect_uri)["code"]
    resp = token_request(base, client, grant_type="authorization_code", code=code,
                         redirect_uri=redirect_uri, code_verifier=verifier)
    assert resp.status_code == 200, resp.text
    return resp.json()


def bearer(base: str, path: str, token: str, method: str = "GET", company: int | None = None,
           header: str = "Quick-Company-Id", **kwargs) -> requests.Response:
    """An API request with a Bearer token (and the company header when company is given)."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if company is not None:
        headers[header] = str(company)
    return requests.request(method, f"{base}{path}", headers=headers, timeout=10, **kwargs)
