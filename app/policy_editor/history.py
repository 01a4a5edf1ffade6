"""Versions of the policies saved from Bookdesk: recording them and telling their story."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from sqlalchemy import select

from app.params import whole
from app.policies import diff_configs
from app.store.db import store_session
from app.store.history import Actor, add_version, get_version, latest_version, list_versions
from app.store.models import PolicyVersion

FOUND = "found"
DELETE = "delete"
SAVE = "save"
PAGE = 50
NOBODY = Actor("", "")


def record_save(company_id: int, previous, new, actor: Actor, origin: str):
    """Keep the saved configuration; first the one replaced, if history does not hold it."""
    record_found(company_id, previous)
    return add_version(company_id, new, actor, note=_note(origin))


def record_found(company_id: int, stored) -> None:
    """Keep the stored configuration as found, if history does not hold it yet (done before a
    save is recorded, and when a save got no answer, while the replaced one is still known)."""
    latest = latest_version(company_id)
    known = latest.config if latest is not None else None
    if (latest is not None or stored is not None) and known != stored:
        add_version(company_id, stored, NOBODY, note=FOUND)


def record_landed(company_id: int, saved, actor: Actor, origin: str):
    """Keep a save whose answer was lost but which is found stored (its predecessor was kept
    by record_found when the answer was lost; what is stored now is not a "found" version)."""
    return add_version(company_id, saved, actor, note=_note(origin))


def _note(origin: str) -> str:
    return SAVE if origin in ("edit", "", None) else origin


@dataclass
class Entry:
    """One version as the history page shows it."""

    version: object
    action: str
    changes: list = field(default_factory=list)
    first: bool = False

    @property
    def deleted(self) -> bool:
        """Whether this version records that the settings were deleted."""
        return self.version.config is None


def entries(company_id: int, limit: int = PAGE) -> list[Entry]:
    """The newest versions with what each changed compared with the one before it."""
    versions = list_versions(company_id, limit=limit + 1)
    shown = []
    for position, version in enumerate(versions[:limit]):
        older = versions[position + 1] if position + 1 < len(versions) else None
        changes = diff_configs(older.config, version.config) if older is not None else []
        shown.append(Entry(version, action_text(version.note, older is None),
                           [change.text(_) for change in changes], older is None))
    return shown


def action_text(note: str | None, first: bool = False) -> str:
    """What the version records, in words."""
    kind, _sep, detail = (note or SAVE).partition(":")
    if kind == FOUND:
        return (_("Found in the accounting service before the first save from Bookdesk")
                if first else _("Found in the accounting service: changed outside Bookdesk"))
    if kind == DELETE:
        return _("All policy settings deleted")
    if kind == "import":
        return _("Imported from the file %(file)s", file=detail)
    if kind == "restore":
        return _("Version %(id)s restored", id=detail)
    return _("Saved")


def actor_text(version) -> str:
    """Who saved the version: name and token fingerprint, or unknown."""
    if not version.actor_fp:
        return _("unknown (outside Bookdesk)")
    return f"{version.actor or _('(no name)')} · {version.actor_fp}"


def is_oldest(company_id: int, version) -> bool:
    """Whether no earlier version of the company is kept."""
    stmt = select(PolicyVersion.id).where(PolicyVersion.company_id == company_id,
                                          PolicyVersion.id < version.id).limit(1)
    return store_session().scalar(stmt) is None


def find(company_id: int, version_id) -> object | None:
    """The company's version with this id, or None (400 when the id is not a number)."""
    number = whole(version_id, "id", minimum=1)
    return None if number is None else get_version(company_id, number)
