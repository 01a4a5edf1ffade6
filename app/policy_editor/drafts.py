"""The working draft of a company's policies, kept in the server-side session.

session["policy_drafts"]["<company_id>"] = {"config", "base", "rev", "origin"}:
  config  the edited configuration (unknown keys included)
  base    hash of the stored configuration the draft started from (to spot edits elsewhere)
  rev     bumped on every change; forms send it back so a stale tab cannot overwrite
  origin  "edit", "import:<file name>" or "restore:<version id>"
session["policy_readonly"]["<token fingerprint>"] = the upstream's reason for refusing a save
  ("" once the user asked to try again). Keyed by the token, not the company: signing in again
  with an administrator's token opens the editor writable.
The settings page writes the same endpoint (PATCH company-info, administrators only) and keeps
its refusals under its own key; one of those opens the editor read-only too.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from flask import session

DRAFTS = "policy_drafts"
READONLY = "policy_readonly"
# The reason shown when the refusal came from the settings page.
SETTINGS_REFUSED = "@settings"


@dataclass(frozen=True)
class Draft:
    """An unsaved configuration and where it came from."""

    config: dict
    base: str
    rev: int
    origin: str = "edit"


def config_hash(config) -> str:
    """A stable fingerprint of a configuration (key order does not matter)."""
    text = json.dumps(config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def load_draft(company_id: int) -> Draft | None:
    """The company's draft in this session, or None."""
    entry = (session.get(DRAFTS) or {}).get(str(company_id))
    if not isinstance(entry, dict) or not isinstance(entry.get("config"), dict):
        return None
    return Draft(entry["config"], entry.get("base", ""), int(entry.get("rev", 0)),
                 entry.get("origin", "edit"))


def store_draft(company_id: int, config: dict, base: str, rev: int, origin: str) -> Draft:
    """Keep config as the company's draft under a new revision."""
    draft = Draft(config, base, rev + 1, origin)
    drafts = dict(session.get(DRAFTS) or {})
    drafts[str(company_id)] = {"config": config, "base": base, "rev": draft.rev,
                               "origin": origin}
    session[DRAFTS] = drafts
    return draft


def discard_draft(company_id: int) -> None:
    """Forget the company's draft."""
    drafts = dict(session.get(DRAFTS) or {})
    if drafts.pop(str(company_id), None) is not None:
        session[DRAFTS] = drafts


def readonly_reason(fingerprint: str) -> str | None:
    """Why this token may not save policies, once the upstream said so (here or in settings)."""
    flags = session.get(READONLY) or {}
    if fingerprint in flags:
        return flags[fingerprint] or None
    return SETTINGS_REFUSED if fingerprint in (session.get(_settings_key()) or []) else None


def _settings_key() -> str:
    try:
        from app.settings.flow import DENIED_KEY
    except ImportError:
        return "settings_read_only"
    return DENIED_KEY


def remember_readonly(fingerprint: str, reason: str) -> None:
    """Open the editor read-only for this token from now on in this session."""
    flags = dict(session.get(READONLY) or {})
    flags[fingerprint] = reason
    session[READONLY] = flags


def forget_readonly(fingerprint: str) -> None:
    """Let the user try to save again (e.g. after their role was changed)."""
    flags = dict(session.get(READONLY) or {})
    flags[fingerprint] = ""
    session[READONLY] = flags
