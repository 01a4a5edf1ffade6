"""One pooled requests.Session per thread, shared by every client on that thread."""

from __future__ import annotations

import threading
from http.cookiejar import DefaultCookiePolicy

import requests
from requests.adapters import HTTPAdapter
from requests.auth import AuthBase

POOL_CONNECTIONS = 4
POOL_MAXSIZE = 4

_local = threading.local()


def get_session() -> requests.Session:
    """The calling thread's session, created on first use."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = _new_session()
    return session


def _new_session() -> requests.Session:
    session = requests.Session()
    # The session is shared by clients of different users: never carry cookies between them.
    session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
    # Retries are ours (per method); urllib3 must not resend anything on its own.
    adapter = HTTPAdapter(
        pool_connections=POOL_CONNECTIONS, pool_maxsize=POOL_MAXSIZE, max_retries=0
    )
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class TokenAuth(AuthBase):
    """Sets ``Authorization: Token <token>``; its repr never shows the token."""

    def __init__(self, token: str) -> None:
        self._token = token

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"Token {self._token}"
        return request

    def __repr__(self) -> str:
        return "TokenAuth(***)"
