"""What a policy configuration changes and what became of it: diff_configs() (what saving a new
configuration changes, for the editor's summary and the story of each version), the versions
saved from Bookdesk (recording them and telling their story), the configuration as a JSON file
(export and import), and the limits on any configuration that comes from outside the editor.

A policy file is read with every number finite (NaN, Infinity and numbers too large for a float
are refused) and integers of at most MAX_DIGITS digits. Any configuration, read or stored, is
then walked (iteratively, so depth itself cannot exhaust the stack) for its nesting depth, its
number of values and rules and the length of its texts. What breaks a limit is a structural
problem: the editor shows it instead of the rules, and nothing is sent upstream.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from flask import Response
from flask_babel import gettext as _
from flask_babel import pgettext
from sqlalchemy import select

import app.policies.labels as M
from app.files import disposition
from app.forms.filters import whole
from app.numbers import company_today
from app.policies.editor.present import rule_name, set_changes
from app.policies.labels import CONFIG_KEYS, IGNORE_KEYS, POLICY_KEYS, SET_KEYS, Catalogs
from app.policies.validate import Problem, is_enabled, rules
from app.store.db import PolicyVersion, store_session
from app.store.history import Actor, add_version, get_version, latest_version, list_versions

# -- what a save changes --------------------------------------------------------------------------

@dataclass(frozen=True)
class Change(M.Worded):
    """One line of the summary; kind is like "policy_added" or "ignore_moved"."""

    kind: str
    message: str
    params: dict = field(default_factory=dict)


def diff_configs(old, new, deleted: str = M.CONFIG_DELETED,
                 catalogs: Catalogs | None = None):
    """List the changes from old to new; null on either side means no policies (deleted words
    a deletion: to come by default, done in the history).
    The records a policy sets are named from catalogs (by "#id" without them)."""
    changes = []
    if new is None and old is not None:
        changes.append(Change("deleted", deleted))
    old, new = _as_config(old), _as_config(new)
    catalogs = catalogs or Catalogs.from_lists({})
    changes += _switch_changes(old, new)
    for key, section in (("policies", "policy"), ("ignore_policies", "ignore")):
        changes += _rule_list_changes(rules(old, key), rules(new, key), section, catalogs)
    keys = _changed_keys(old, new, CONFIG_KEYS)
    if keys:
        changes.append(Change("other", M.OTHER_SETTINGS, {"keys": ", ".join(keys)}))
    return changes


def _switch_changes(old, new):
    on = bool(new.get("skip_for_multiple_match"))
    if bool(old.get("skip_for_multiple_match")) == on:
        return []
    return [Change("switch", M.SWITCH_ON if on else M.SWITCH_OFF)]


def _as_config(config):
    return config if isinstance(config, dict) else {}


def _keyed(rule_list):
    """Key rules by (name, occurrence) so that duplicate names still pair up in order."""
    keyed, seen = {}, {}
    for rule in rule_list:
        if isinstance(rule, dict):
            name = str(rule.get("name") or "")
            seen[name] = seen.get(name, -1) + 1
            keyed[(name, seen[name])] = rule
    return keyed


def _rule_list_changes(old_list, new_list, section, catalogs):
    old, new = _keyed(old_list), _keyed(new_list)
    messages = M.POLICY_CHANGES if section == "policy" else M.IGNORE_CHANGES
    old_names, names = _shown_names(old), _shown_names(new)

    def change(what, key, **params):
        name = names.get(key) or old_names[key]
        return Change(f"{section}_{what}", messages[what], {"name": name, **params})

    renamed = _renamed(old, new)
    gone = set(old) - set(new) - set(renamed.values())
    changes = [change("removed", key) for key in old if key in gone]
    for key, rule in new.items():
        if key in renamed:
            changes.append(change("renamed", key, old=old_names[renamed[key]]))
        elif key not in old:
            changes.append(change("added", key))
            continue
        was = old[renamed.get(key, key)]
        changes += [change(what, key, **params)
                    for what, params in _rule_changes(was, rule, section, catalogs)]
    positions = {key: index + 1 for index, key in enumerate(new)}
    moved = _moved([key for key in old if key in new], [key for key in new if key in old])
    return changes + [change("moved", key, position=positions[key]) for key in moved]


def _shown_names(keyed: dict) -> dict:
    """{key: the rule's name}, an unnamed rule named by its number in the list."""
    return {key: rule_name(rule, number) for number, (key, rule) in enumerate(keyed.items(), 1)}


def _renamed(old: dict, new: dict) -> dict:
    """{new key: old key} for a rule renamed in place: one left and one came at the same
    position, keeping its conditions or what it sets. Otherwise it is a removal and an addition."""
    gone = {index: key for index, key in enumerate(old) if key not in new}
    came = {index: key for index, key in enumerate(new) if key not in old}
    return {came[index]: gone[index] for index in gone.keys() & came.keys()
            if _kept_a_part(old[gone[index]], new[came[index]])}


def _kept_a_part(old: dict, new: dict) -> bool:
    return any(old.get(part) is not None and old.get(part) == new.get(part)
               for part in ("conditions", "set"))


def _rule_changes(old, new, section, catalogs) -> list[tuple[str, dict]]:
    """(what, its params) for each way the rule changed."""
    whats = []
    if is_enabled(old) != is_enabled(new):
        whats.append(("enabled" if is_enabled(new) else "disabled", {}))
    if old.get("match", "all") != new.get("match", "all"):
        whats.append(("match_any" if new.get("match") == "any" else "match_all", {}))
    if (old.get("conditions") or []) != (new.get("conditions") or []):
        whats.append(("conditions", {}))
    keys = _changed_keys(old, new, POLICY_KEYS if section == "policy" else IGNORE_KEYS)
    if section == "policy" and old.get("set") != new.get("set"):
        set_keys = _changed_keys(_as_config(old.get("set")), _as_config(new.get("set")),
                                 SET_KEYS)
        # The bare "what it sets changed" only when nothing else tells the change.
        whats += _set_whats(old.get("set"), new.get("set"), catalogs) or \
            ([] if set_keys else [("actions", {})])
        keys += set_keys
    return whats + ([("changed", {"keys": ", ".join(keys)})] if keys else [])


def _set_whats(old, new, catalogs) -> list[tuple[str, dict]]:
    """Each value the rule sets differently, before and after, in words."""
    return [("sets", {"target": label, "old": before, "new": after})
            for label, before, after in set_changes(old, new, catalogs)]


def _changed_keys(old: dict, new: dict, known) -> list[str]:
    """The keys Bookdesk does not edit whose values differ."""
    return sorted(str(key) for key in {*old, *new} - set(known) if old.get(key) != new.get(key))


def _moved(old_order, new_order):
    """Return the keys outside a longest common subsequence: the fewest rules that moved."""
    kept = set(_lcs(old_order, new_order))
    return [key for key in new_order if key not in kept]


def _lcs(first, second):
    lengths = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            longest = max(lengths[i][j + 1], lengths[i + 1][j])
            lengths[i + 1][j + 1] = lengths[i][j] + 1 if a == b else longest
    common, i, j = [], len(first), len(second)
    while i and j:
        if first[i - 1] == second[j - 1]:
            common.append(first[i - 1])
            i, j = i - 1, j - 1
        elif lengths[i - 1][j] >= lengths[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return common[::-1]


# -- versions -------------------------------------------------------------------------------------

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


def delete_landed(company_id: int, confirmed: str | None, config_hash) -> bool:
    """Whether a delete whose answer was lost, nothing being stored now, had gone through: what
    it confirmed (confirmed: its hash) is the last version known, kept when its answer was lost."""
    latest = latest_version(company_id)
    return bool(confirmed) and latest is not None and latest.config is not None and \
        config_hash(latest.config) == confirmed


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


def entries(company_id: int, catalogs: Catalogs | None = None,
            limit: int = PAGE) -> list[Entry]:
    """The newest versions with what each changed compared with the one before it (the
    records policies set named from catalogs)."""
    versions = list_versions(company_id, limit=limit + 1)
    shown = []
    for position, version in enumerate(versions[:limit]):
        older = versions[position + 1] if position + 1 < len(versions) else None
        changes = [] if older is None else diff_configs(
            older.config, version.config, M.CONFIG_WAS_DELETED, catalogs=catalogs)
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


# -- limits ---------------------------------------------------------------------------------------

# The policy format nests 7 deep (config, policies, rule, set, split, part, tags); unknown
# keys are kept, so some room is left for them.
MAX_DEPTH = 16
MAX_VALUES = 50_000
MAX_RULES = 1_000
MAX_TEXT = 5_000
MAX_DIGITS = 30



class Refused(ValueError):
    """A number in the file that no policy can hold; problem says which."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def loads(text: str):
    """Parse JSON text with finite numbers only; Refused, ValueError or RecursionError else."""
    return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)


def _constant(name: str):
    raise Refused(Problem((), M.NOT_FINITE, {"value": name}))


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise Refused(Problem((), M.NOT_FINITE, {"value": text[:40]}))
    return number


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Refused(Problem((), M.TOO_MANY_DIGITS, {"max": MAX_DIGITS}))
    return int(text)


def limit_problems(config) -> list[Problem]:
    """The first limit config breaks, as a one-item list (empty when it keeps them all).

    Every problem has the empty path: it is about the configuration as a whole, listed above
    the rules (which are not shown while it lasts)."""
    count = 0
    stack = [(config, ())]
    while stack:
        node, path = stack.pop()
        count += 1
        problem = _node_problem(node, path, count)
        if problem is not None:
            return [problem]
        children = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        stack.extend((child, path + (key,)) for key, child in children)
    return _rule_count(config)


def _node_problem(node, path: tuple, count: int) -> Problem | None:
    """The limit one value breaks; located in the text, so the editor lists it on top."""
    where = "/".join(map(str, path)) or "/"
    if len(path) > MAX_DEPTH:
        return Problem((), M.TOO_DEEP, {"max": MAX_DEPTH})
    if count > MAX_VALUES:
        return Problem((), M.TOO_MANY_VALUES, {"max": MAX_VALUES})
    if isinstance(node, str) and len(node) > MAX_TEXT:
        return Problem((), M.TEXT_TOO_LONG, {"max": MAX_TEXT, "where": where})
    if isinstance(node, float) and not math.isfinite(node):
        return Problem((), M.NON_FINITE_VALUE, {"where": where})
    if isinstance(node, int) and not isinstance(node, bool) and abs(node) >= 10**MAX_DIGITS:
        return Problem((), M.TOO_MANY_DIGITS, {"max": MAX_DIGITS})
    return None


def _rule_count(config) -> list[Problem]:
    if not isinstance(config, dict):
        return []
    rules = [config.get(key) for key in ("policies", "ignore_policies")]
    total = sum(len(found) for found in rules if isinstance(found, list))
    return [Problem((), M.TOO_MANY_RULES, {"max": MAX_RULES})] if total > MAX_RULES else []


# -- files ----------------------------------------------------------------------------------------

MAX_BYTES = 1_000_000


class UnreadableFile(ValueError):
    """The upload is not a JSON policy configuration; the message says why."""


def read_upload(storage) -> dict:
    """The configuration in an uploaded file, or UnreadableFile."""
    raw = storage.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise UnreadableFile(_("The file is larger than 1 MB; a policy file is much smaller."))
    config = _parse(raw)
    if config is None:
        raise UnreadableFile(_("The file holds null, which means no policies. To remove the "
                               "policies, use “Delete all policy settings” instead."))
    broken = limit_problems(config)
    if broken:
        raise UnreadableFile(broken[0].text(_))
    return config


def _parse(raw: bytes):
    """The JSON in the file, finite numbers only; UnreadableFile says what is wrong."""
    try:
        return loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise UnreadableFile(_("The file is not UTF-8 text.")) from None
    except Refused as exc:
        raise UnreadableFile(exc.problem.text(_)) from None
    except RecursionError:
        raise UnreadableFile(_(M.TOO_DEEP) % {"max": MAX_DEPTH}) from None
    except json.JSONDecodeError as exc:
        raise UnreadableFile(_("The file is not valid JSON (line %(line)s, column %(column)s).",
                               line=exc.lineno, column=exc.colno)) from None


def file_name(storage) -> str:
    """The uploaded file's name, shortened for the history."""
    return (getattr(storage, "filename", "") or "policies.json").rsplit("/", 1)[-1][:80]


def readable_json(config) -> str:
    """The configuration as the file holds it: its own key order, letters as they are."""
    return json.dumps(config, ensure_ascii=False, indent=2)


def export_response(config, company_id: int, what: str) -> Response:
    """The configuration as a downloadable, readable JSON file."""
    body = readable_json(config) + "\n"
    stem = pgettext("file name", "income-policies")
    name = f"{stem}-{company_id}-{what}-{company_today().isoformat()}.json"
    return Response(body.encode("utf-8"), mimetype="application/json",
                    headers={"Content-Disposition": disposition("attachment", name)})
