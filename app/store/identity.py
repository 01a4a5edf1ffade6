"""Who did something: the sign-in name plus a keyed fingerprint of the token, never the token."""

from __future__ import annotations

import hashlib
import hmac
from typing import NamedTuple

FINGERPRINT_LENGTH = 16


class Actor(NamedTuple):
    """A user as the store records them: display name and token fingerprint."""

    name: str
    fp: str


def fingerprint(token: str, secret: str | bytes) -> str:
    """Return the first 16 hex chars of HMAC-SHA256(secret, token)."""
    key = secret.encode() if isinstance(secret, str) else secret
    if not key:
        raise ValueError("a secret key is required to fingerprint a token")
    digest = hmac.new(key, token.encode(), hashlib.sha256).hexdigest()
    return digest[:FINGERPRINT_LENGTH]


def actor_for(name: str, token: str, secret: str | bytes) -> Actor:
    """Build the Actor for a signed-in user from their name and token."""
    return Actor(name=name, fp=fingerprint(token, secret))
