"""A user is recorded as a name plus a keyed fingerprint of the token, never the token."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from app.store.history import Actor, actor_for, fingerprint


def test_fingerprint_is_the_first_16_hex_chars_of_hmac_sha256() -> None:
    expected = hmac.new(b"app-secret", b"tok-123", hashlib.sha256).hexdigest()[:16]
    assert fingerprint("tok-123", "app-secret") == expected
    assert fingerprint("tok-123", b"app-secret") == expected


def test_fingerprint_depends_on_the_secret_and_hides_the_token() -> None:
    fp = fingerprint("tok-123", "app-secret")
    assert fp != fingerprint("tok-123", "other-secret")
    assert fp != fingerprint("tok-124", "app-secret")
    assert "tok-123" not in fp


def test_fingerprint_refuses_an_empty_secret() -> None:
    with pytest.raises(ValueError):
        fingerprint("tok-123", "")


def test_actor_for_pairs_the_name_with_the_fingerprint() -> None:
    assert actor_for("Anna", "tok-123", "s") == Actor("Anna", fingerprint("tok-123", "s"))
