"""Demo users (the people behind the demo tokens) and the demo OAuth2 client (README, sandbox)."""
from __future__ import annotations

import os
import time

from sqlalchemy.orm import Session

from sandbox.company.model import Company, hash_token
from sandbox.core.errors import validation_error
from sandbox.oauth.model import Membership, OAuthClient, User

# (email, first name, last name, {company no: role}, has two-factor authentication)
DEMO_USERS = (
    ("anna.kovacs@pelda.hu", "Anna", "Kovács", {1: "admin", 2: "bookkeeper"}, True),
    ("peter.szabo@pelda.hu", "Péter", "Szabó", {1: "bookkeeper"}, True),
    ("eszter.toth@pelda.hu", "Eszter", "Tóth", {1: "viewer"}, True),
    ("gabor.nagy@masodik.hu", "Gábor", "Nagy", {2: "admin"}, True),
    ("bela.kiss@pelda.hu", "Béla", "Kiss", {1: "admin"}, False),
)
DEMO_CLIENT_ID = "bookdesk-demo"
DEMO_CLIENT_SECRET = "bookdesk-demo-secret"  # noqa: S105 (documented in the README)
# Bookdesk's port, set by `bookdesk demo`: the sandbox is started with a seed name only.
DEMO_PORT_VARIABLE = "SANDBOX_DEMO_BOOKDESK_PORT"


def callback_uris(port: int | str) -> tuple[str, ...]:
    """Bookdesk's OAuth2 callback on `port`, at 127.0.0.1 and at localhost."""
    return tuple(f"http://{host}:{port}/oauth/callback" for host in ("127.0.0.1", "localhost"))


DEMO_REDIRECT_URIS = callback_uris(5000)


def demo_redirect_uris() -> list[str]:
    """The demo client's callbacks: port 5000, and the port SANDBOX_DEMO_BOOKDESK_PORT names."""
    port = os.environ.get(DEMO_PORT_VARIABLE, "").strip()
    extra = callback_uris(port) if port else ()
    return list(dict.fromkeys((*DEMO_REDIRECT_URIS, *extra)))


def seed_demo(session: Session, companies: dict[int, Company], _rng) -> None:
    """The demo users with their roles, and the demo client."""
    for email, first, last, roles, has_2fa in DEMO_USERS:
        add_user(session, email, first, last,
                 {companies[no]: role for no, role in roles.items()}, has_2fa=has_2fa)
    add_client(session, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, demo_redirect_uris(),
               "Bookdesk (demo)")


def add_user(session: Session, email: str, first: str, last: str,
             roles: dict[Company, str], has_2fa: bool = True) -> User:
    """A user with a role in each company given; a taken e-mail address is refused."""
    if session.query(User).filter_by(email=email).count():
        raise validation_error({"email": ["A user with this e-mail address exists."]})
    user = User(email=email, first_name=first, last_name=last, has_2fa=has_2fa)
    session.add(user)
    session.add_all([Membership(user=user, company=company, role=role)
                     for company, role in roles.items()])
    session.flush()
    return user


def add_client(session: Session, client_id: str, secret: str, redirect_uris: list[str],
               name: str) -> OAuthClient:
    """A confidential client for the authorization code grant (secret stored as a digest)."""
    client = OAuthClient(client_id=client_id, client_secret=hash_token(secret),
                         client_id_issued_at=int(time.time()))
    client.set_client_metadata({
        "client_name": name, "redirect_uris": redirect_uris, "scope": "",
        "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
        "token_endpoint_auth_method": "client_secret_basic"})
    session.add(client)
    session.flush()
    return client
