"""What one editor request works on: the stored configuration, this session's draft, the
catalogues; and the pure changes to the rule lists.

The working draft lives in the server-side session, per company:
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

import copy
import hashlib
import json
from dataclasses import dataclass
from functools import cached_property, partial

from flask import g, session
from flask_babel import gettext as _

import app.policies.messages as M
from app.auth import current_actor
from app.policies.assignments import names_in_config
from app.policies.diff import diff_configs
from app.policies.history import limit_problems
from app.policies.labels import Catalogs
from app.policies.validate import LEDGER_NUMBERS, REVENUE_TYPES, TAGS, empty_config, validate
from app.upstream import NotFound, catalog, run_parallel
from app.upstream import policies as upstream
from app.upstream.bodies import detail_text

# -- the draft in the session----------------------------------------------------------------------

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
        from app.settings.company import DENIED_KEY
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


# -- the upstream side: the stored configuration and the catalogues it names-----------------------

EDITOR_CATALOGS = (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)
# Records the engine may create when it applies policies (DESIGN.md, upstream-notes).
CREATED_BY_ENGINE = (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)


def forget_created_records(company_id: int, config) -> None:
    """Drop cached catalogues the engine may add to once these policies run."""
    named = names_in_config(config) if isinstance(config, dict) else {}
    for name in CREATED_BY_ENGINE:
        if name in named or config is None:
            catalog.invalidate(company_id, name)


def _catalog_or_empty(api, name: str) -> list:
    """A catalogue's records; [] where the upstream lacks it (ledger numbers are beyond spec)."""
    try:
        return catalog.get(api, name)
    except NotFound:
        return []


def load_editor_data(api, *, currencies: bool = False) -> tuple:
    """The stored configuration and the catalogues, read side by side."""
    return editor_data(run_parallel(editor_tasks(api, currencies=currencies)))


def editor_tasks(api, *, currencies: bool = False) -> dict:
    """The editor's reads as run_parallel tasks, so a page can add reads of its own."""
    names = EDITOR_CATALOGS + (("currencies",) if currencies else ())
    tasks = {name: partial(_catalog_or_empty, api, name) for name in names}
    tasks["stored"] = partial(upstream.get_config, api)
    return tasks


def editor_data(found: dict) -> tuple:
    """(stored configuration, Catalogs) from the results of editor_tasks."""
    found = dict(found)
    return found.pop("stored"), Catalogs.from_lists(found)


def refusal_text(exc) -> str:
    """The upstream's own words for a refusal (its "detail"), or an empty string."""
    return detail_text(getattr(exc, "body", None))[:300]


# -- the state of one request----------------------------------------------------------------------

# Problems that leave nothing the editor could show as a form: fix the file instead.
STRUCTURAL = {M.CONFIG_NOT_OBJECT, M.NOT_LIST, M.RULE_NOT_OBJECT, M.CONDITION_NOT_OBJECT,
              M.SET_NOT_OBJECT, M.PART_NOT_OBJECT, M.TAGS_NOT_LIST, M.VERSION_MISSING,
              M.VERSION_UNSUPPORTED}


def all_problems(config) -> list:
    """Every problem of config: a broken limit alone (nothing else is checked then), else
    what validate() finds."""
    return limit_problems(config) or validate(config)


def shape_problems(config) -> list:
    """The problems that stop the editor from editing config (broken limits, wrong types,
    other versions)."""
    broken = limit_problems(config)
    if broken:
        return broken
    problems = [p for p in validate(config) if p.message in STRUCTURAL]
    if config is None:
        return problems
    for problem in validate(config):
        if problem.message == M.SPLIT_EMPTY and problem.path[-1:] == ("split",):
            problems += [problem] if not _is_list_at(config, problem.path) else []
    return problems


def _is_list_at(config, path) -> bool:
    node = config
    for step in path:
        node = node[step]
    return isinstance(node, list)


@dataclass
class EditorState:
    """The stored configuration, this session's draft and the catalogues."""

    company_id: int
    stored: object
    catalogs: Catalogs
    draft: Draft | None
    readonly: str | None

    @property
    def baseline(self) -> dict:
        """The stored configuration, or an empty one when none is stored."""
        return self.stored if isinstance(self.stored, dict) else empty_config()

    @property
    def config(self) -> dict:
        """What the editor shows: the draft, else the stored configuration."""
        return self.draft.config if self.draft else self.baseline

    @property
    def rev(self) -> int:
        """The draft's revision (0 without a draft); forms send it back."""
        return self.draft.rev if self.draft else 0

    @property
    def stale(self) -> bool:
        """Whether the stored configuration changed since the draft was started."""
        return bool(self.draft) and self.draft.base != config_hash(self.stored)

    @cached_property
    def problems(self) -> list:
        """Every validation problem of the shown configuration."""
        return all_problems(self.config)

    @cached_property
    def changes(self) -> list:
        """What saving the draft would change (empty without a draft)."""
        return diff_configs(self.stored, self.config) if self.draft else []

    @property
    def change_texts(self) -> list[str]:
        """The changes in words, in the user's language."""
        return [change.text(_) for change in self.changes]

    @cached_property
    def shape(self) -> list:
        """Structural problems: non-empty means the configuration cannot be edited as a form."""
        odd_stored = not self.draft and self.stored is not None and \
            not isinstance(self.stored, dict)
        return shape_problems(self.stored if odd_stored else self.config)


def load_state(*, currencies: bool = False, data: tuple | None = None) -> EditorState:
    """The editor's state; reads the stored configuration and catalogues unless given."""
    stored, catalogs = data or load_editor_data(g.api, currencies=currencies)
    company_id = g.company_id
    return EditorState(company_id, stored, catalogs, load_draft(company_id),
                       readonly_reason(current_actor().fp))


def update_draft(state: EditorState, config: dict, origin: str | None = None):
    """Keep config as the draft; a config equal to the stored one ends the draft."""
    if config == state.baseline and origin is None:
        discard_draft(state.company_id)
        state.draft = None
        _forget_cached(state)
        return None
    base = state.draft.base if state.draft else config_hash(state.stored)
    origin = origin or (state.draft.origin if state.draft else "edit")
    state.draft = store_draft(state.company_id, config, base, state.rev, origin)
    _forget_cached(state)
    return state.draft


def _forget_cached(state: EditorState) -> None:
    for name in ("problems", "changes", "shape"):
        state.__dict__.pop(name, None)


# -- the rule lists--------------------------------------------------------------------------------

SECTIONS = {"policies": "policies", "ignore": "ignore_policies"}


class RuleNotFound(LookupError):
    """The section or position names no rule of the configuration."""


def section_key(section: str) -> str:
    """The configuration key of a section ("policies" or "ignore")."""
    if section not in SECTIONS:
        raise RuleNotFound(section)
    return SECTIONS[section]


def rule_list(config, section: str) -> list:
    """The section's rules (empty when absent)."""
    found = config.get(section_key(section)) if isinstance(config, dict) else None
    return found if isinstance(found, list) else []


def get_rule(config, section: str, index: int) -> dict:
    """The rule at index, or RuleNotFound."""
    rules = rule_list(config, section)
    if not 0 <= index < len(rules) or not isinstance(rules[index], dict):
        raise RuleNotFound(f"{section}[{index}]")
    return rules[index]


def new_rule(section: str) -> dict:
    """A fresh rule with one empty condition (policies also set nothing yet)."""
    rule = {"name": "", "enabled": True, "match": "all",
            "conditions": [{"field": "partner_name", "op": "contains", "value": ""}]}
    if section == "policies":
        rule["set"] = {}
    return rule


def _with_rules(config, section: str, change) -> dict:
    result = copy.deepcopy(config) if isinstance(config, dict) else empty_config()
    rules = list(rule_list(result, section))
    change(rules)
    result[section_key(section)] = rules
    return result


def put_rule(config, section: str, index: int | None, rule: dict) -> dict:
    """Replace the rule at index, or append it when index is None."""
    def _change(rules):
        if index is None:
            rules.append(copy.deepcopy(rule))
        else:
            get_rule(config, section, index)
            rules[index] = copy.deepcopy(rule)
    return _with_rules(config, section, _change)


def delete_rule(config, section: str, index: int) -> dict:
    """Remove the rule at index."""
    get_rule(config, section, index)
    return _with_rules(config, section, lambda rules: rules.pop(index))


def duplicate_rule(config, section: str, index: int) -> dict:
    """Insert a copy under the original, named "<name> (copy)" (numbered when taken)."""
    rule = copy.deepcopy(get_rule(config, section, index))
    rule["name"] = copy_name(str(rule.get("name") or ""), rule_list(config, section))
    return _with_rules(config, section, lambda rules: rules.insert(index + 1, rule))


def copy_name(name: str, rules: list) -> str:
    """A name for a copy that no rule of the list has yet."""
    taken = {str(r.get("name", "")).casefold() for r in rules if isinstance(r, dict)}
    candidate, number = _("%(name)s (copy)", name=name), 2
    while candidate.casefold() in taken:
        candidate = _("%(name)s (copy %(number)s)", name=name, number=number)
        number += 1
    return candidate


def move_rule(config, section: str, index: int, delta: int) -> dict:
    """Move the rule by delta places (clamped to the list)."""
    get_rule(config, section, index)
    target = max(0, min(len(rule_list(config, section)) - 1, index + delta))
    return _with_rules(config, section, lambda rules: rules.insert(target, rules.pop(index)))


def toggle_rule(config, section: str, index: int) -> dict:
    """Switch the rule on or off (a missing "enabled" counts as on)."""
    rule = copy.deepcopy(get_rule(config, section, index))
    rule["enabled"] = rule.get("enabled", True) is False
    return put_rule(config, section, index, rule)


def set_switch(config, on: bool) -> dict:
    """Set skip_for_multiple_match."""
    result = copy.deepcopy(config) if isinstance(config, dict) else empty_config()
    result["skip_for_multiple_match"] = bool(on)
    return result
