"""What one editor request works on: the stored configuration, the draft, the catalogues."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask import g
from flask_babel import gettext as _

from app.auth import current_actor
from app.policies import diff_configs, empty_config, validate
from app.policies import messages as M
from app.policy_editor import drafts
from app.policy_editor.limits import limit_problems
from app.policy_editor.refs import Catalogs
from app.policy_editor.stored import load_editor_data

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
    draft: drafts.Draft | None
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
        return bool(self.draft) and self.draft.base != drafts.config_hash(self.stored)

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
    return EditorState(company_id, stored, catalogs, drafts.load_draft(company_id),
                       drafts.readonly_reason(current_actor().fp))


def update_draft(state: EditorState, config: dict, origin: str | None = None):
    """Keep config as the draft; a config equal to the stored one ends the draft."""
    if config == state.baseline and origin is None:
        drafts.discard_draft(state.company_id)
        state.draft = None
        _forget_cached(state)
        return None
    base = state.draft.base if state.draft else drafts.config_hash(state.stored)
    origin = origin or (state.draft.origin if state.draft else "edit")
    state.draft = drafts.store_draft(state.company_id, config, base, state.rev, origin)
    _forget_cached(state)
    return state.draft


def _forget_cached(state: EditorState) -> None:
    for name in ("problems", "changes", "shape"):
        state.__dict__.pop(name, None)
