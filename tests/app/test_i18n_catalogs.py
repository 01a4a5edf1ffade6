"""Catalogs are up to date with the code (pybabel update) and Hungarian is complete."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PYBABEL = [sys.executable, "-m", "babel.messages.frontend"]
SHOWN = 20  # msgids listed in a failure message


def _extract(target: Path) -> None:
    subprocess.run(
        [*PYBABEL, "extract", "-F", "babel.cfg", "-k", "_l", "-k", "lazy_gettext",
         "-k", "ngettext:1,2", "--omit-header", "-o", str(target), "."],
        cwd=ROOT, check=True, capture_output=True)


def _messages(path: Path) -> dict:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context):
            (m.string if isinstance(m.string, str) else tuple(m.string), m.fuzzy)
            for m in catalog if m.id}


def test_catalogs_hold_every_message_of_the_code(tmp_path):
    """`pybabel update` on a copy changes no message (source line numbers and wrapping aside)."""
    pot = tmp_path / "messages.pot"
    _extract(pot)
    copy = tmp_path / "translations"
    shutil.copytree(ROOT / "translations", copy, ignore=shutil.ignore_patterns("*.mo"))
    subprocess.run([*PYBABEL, "update", "-N", "--omit-header", "-i", str(pot), "-d", str(copy)],
                   cwd=ROOT, check=True, capture_output=True)
    for locale in ("hu", "en"):
        relative = Path(locale) / "LC_MESSAGES" / "messages.po"
        current, updated = _messages(ROOT / "translations" / relative), _messages(copy / relative)
        missing = sorted(str(key[0]) for key in updated.keys() - current.keys())
        obsolete = sorted(str(key[0]) for key in current.keys() - updated.keys())
        if missing or obsolete:
            pytest.fail(f"{locale} catalog is out of date: run `flock /tmp/i18n.lock make "
                        "translations-update`"
                        + _listing("msgids in the code but not in the catalog", missing)
                        + _listing("msgids in the catalog but no longer in the code", obsolete),
                        pytrace=False)


def test_pybabel_update_check_is_clean(tmp_path):
    """The catalogues are exactly what `make translations-update` writes from the template."""
    copy = tmp_path / "translations"
    shutil.copytree(ROOT / "translations", copy, ignore=shutil.ignore_patterns("*.mo"))
    result = subprocess.run(
        [*PYBABEL, "update", "-N", "--ignore-obsolete", "--check",
         "-i", str(ROOT / "translations" / "messages.pot"), "-d", str(copy)],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, "run `make translations-update`:\n" + result.stderr[-2000:]


def test_every_message_has_a_hungarian_translation():
    path = ROOT / "translations" / "hu" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="hu")
    missing = [message.id for message in catalog
               if message.id and (message.fuzzy or not _translated(message.string))]
    if missing:
        pytest.fail("Hungarian is incomplete: fill it with `flock /tmp/i18n.lock .venv/bin/python "
                    "tools/po_fill.py hu file.json`"
                    + _listing("msgids without a Hungarian translation", missing), pytrace=False)


def _listing(title: str, msgids: list, limit: int = SHOWN) -> str:
    """A failure-message block: the count, then the first `limit` msgids one per line."""
    if not msgids:
        return ""
    lines = [f"  {str(msgid)!r}" for msgid in msgids[:limit]]
    more = [f"  ... and {len(msgids) - limit} more"] if len(msgids) > limit else []
    return "\n" + "\n".join([f"{len(msgids)} {title}:", *lines, *more])


def _translated(value) -> bool:
    return all(value) if isinstance(value, (list, tuple)) else bool(value)
