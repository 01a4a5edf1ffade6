"""What one editor request works on: the stored configuration, this session's draft, the
catalogues; and the checks every writing view makes: a writable editor, the draft it saw.

The working draft lives in the server-side session, per company:
session["policy_drafts"]["<company_id>"] = {"config", "base", "rev", "origin"}:
  config  the edited configuration (unknown keys included)
  base    hash of the stored configuration the draft started from (to spot edits elsewhere)
  rev     bumped on every change; forms send it back so a stale tab cannot overwrite
  origin  "edit", "import:<file name>" or "restore:<version id>"
A delete whose answer was lost keeps the hash of what it confirmed, per company, in
session["policy_lost_deletes"]["<company_id>"], till the editor finds whether it went through.
Whether the token may save is the "admin" refusal of app/auth/flow.py (per company and token):
the settings page writes the same endpoint (PATCH company-info, administrators only), so a
refusal there, here, or of any write (a viewer) opens the editor read-only; signing in again
with an administrator's token opens it writable.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property, partial

from flask import abort, flash, g, session, url_for
from flask_babel import gettext as _

import app.policies.labels as M
from app.auth import ADMIN, WRITE, forget_refusal, refusal, remember_refusal
from app.forms.filters import whole
from app.policies.editor.editing import SECTIONS
from app.policies.editor.history import diff_configs, limit_problems
from app.policies.engine import names_in_config
from app.policies.labels import LEDGER_NUMBERS, REVENUE_TYPES, TAGS, Catalogs
from app.policies.validate import empty_config, validate
from app.templating import redirect_to
from app.upstream import NotFound, catalog, run_parallel
from app.upstream import company as upstream_company

# -- the draft in the session ---------------------------------------------------------------------

DRAFTS = "policy_drafts"
LOST_DELETES = "policy_lost_deletes"


@dataclass(frozen=True)
class Draft:
    """An unsaved configuration, where it came from, and what was stored when it began."""

    config: dict
    base: str
    rev: int
    origin: str = "edit"
    base_config: object = None


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
                 entry.get("origin", "edit"), entry.get("base_config"))


def store_draft(company_id: int, config: dict, base: str, rev: int, origin: str,
                base_config=None) -> Draft:
    """Keep config as the company's draft under a new revision (base_config: what was stored
    when the draft began, base its hash)."""
    draft = Draft(config, base, rev + 1, origin, base_config)
    _put(DRAFTS, company_id, {"config": config, "base": base, "rev": draft.rev,
                              "origin": origin, "base_config": base_config})
    return draft


def discard_draft(company_id: int) -> None:
    """Forget the company's draft."""
    _pop(DRAFTS, company_id)


def remember_lost_delete(company_id: int, confirmed: str) -> None:
    """Keep what a delete whose answer was lost confirmed (its hash), to find it done later."""
    _put(LOST_DELETES, company_id, confirmed)


def pop_lost_delete(company_id: int) -> str | None:
    """What a delete whose answer was lost confirmed (its hash), forgotten once asked."""
    return _pop(LOST_DELETES, company_id)


def _put(key: str, company_id: int, value) -> None:
    session[key] = {**(session.get(key) or {}), str(company_id): value}


def _pop(key: str, company_id: int):
    """Remove and return the company's entry in session[key] (None when there is none)."""
    entries = dict(session.get(key) or {})
    found = entries.pop(str(company_id), None)
    if found is not None:
        session[key] = entries
    return found


def readonly_reason() -> str | None:
    """Why this token may not save policies, once the upstream said so (on any page)."""
    return refusal(ADMIN)


def remember_readonly() -> None:
    """Open the editor read-only for this token from now on in this session."""
    remember_refusal(ADMIN)


def forget_readonly() -> None:
    """Let the user try to save again (e.g. after their role was changed)."""
    forget_refusal(ADMIN)
    forget_refusal(WRITE)


# -- the upstream side: the stored configuration and the catalogues it names ----------------------

EDITOR_CATALOGS = (REVENUE_TYPES, LEDGER_NUMBERS, TAGS)
# Records the engine may create when it applies policies (as sandbox/policies/rules.py does).
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
    tasks["stored"] = partial(upstream_company.income_policies, api)
    return tasks


def load_catalogs(api) -> Catalogs:
    """The catalogues the editor names records from, read side by side."""
    return Catalogs.from_lists(run_parallel(
        {name: partial(_catalog_or_empty, api, name) for name in EDITOR_CATALOGS}))


def editor_data(found: dict) -> tuple:
    """(stored configuration, Catalogs) from the results of editor_tasks."""
    found = dict(found)
    return found.pop("stored"), Catalogs.from_lists(found)


# -- the state of one request ---------------------------------------------------------------------

# Problems that leave nothing the editor could show as a form: fix the file instead.
STRUCTURAL = {M.CONFIG_NOT_OBJECT, M.NOT_LIST, M.RULE_NOT_OBJECT, M.CONDITION_NOT_OBJECT,
              M.SET_NOT_OBJECT, M.PART_NOT_OBJECT, M.TAGS_NOT_LIST, M.VERSION_MISSING,
              M.VERSION_UNSUPPORTED, M.VERSION_NOT_NUMBER}


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
    found = validate(config)
    problems = [p for p in found if p.message in STRUCTURAL]
    if config is None:
        return problems
    return problems + [p for p in found if p.message == M.SPLIT_EMPTY
                       and p.path[-1:] == ("split",) and not _is_list_at(config, p.path)]


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
    draft: Draft | None
    readonly: str | None
    known_catalogs: Catalogs | None = None

    @property
    def catalogs(self) -> Catalogs:
        """The catalogues the rules name records from; read when first needed (a save that
        goes through never needs them)."""
        if self.known_catalogs is None:
            self.known_catalogs = load_catalogs(g.api)
        return self.known_catalogs

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
        return diff_configs(self.stored, self.config, catalogs=self.catalogs) if self.draft else []

    @property
    def change_texts(self) -> list[str]:
        """The changes in words, in the user's language."""
        return [change.text(_) for change in self.changes]

    @cached_property
    def undone_texts(self) -> set[str]:
        """The changes of a stale draft that take back what was saved since it began: those
        that going from what is stored back to what the draft began from makes too."""
        began = self.draft.base_config if self.stale else None
        if began is None or config_hash(began) != self.draft.base:
            return set()
        changes = diff_configs(self.stored, began, catalogs=self.catalogs)
        theirs = {change.text(_) for change in changes}
        return theirs & set(self.change_texts)

    @cached_property
    def shape(self) -> list:
        """Structural problems: non-empty means the configuration cannot be edited as a form."""
        odd_stored = not self.draft and self.stored is not None and \
            not isinstance(self.stored, dict)
        return shape_problems(self.stored if odd_stored else self.config)


def load_state(*, currencies: bool = False, data: tuple | None = None,
               catalogs: bool = True) -> EditorState:
    """The editor's state; reads the stored configuration and the catalogues (side by side)
    unless given; with catalogs=False only the stored configuration, catalogues on first use."""
    if data is None:
        data = load_editor_data(g.api, currencies=currencies) if catalogs else \
            (upstream_company.income_policies(g.api), None)
    stored, found = data
    company_id = g.company_id
    return EditorState(company_id, stored, load_draft(company_id),
                       readonly_reason(), found)


def update_draft(state: EditorState, config: dict, origin: str | None = None):
    """Keep config as the draft; a config equal to the stored one ends the draft."""
    if config == state.baseline and origin is None:
        discard_draft(state.company_id)
        state.draft = None
        _forget_cached(state)
        return None
    base = state.draft.base if state.draft else config_hash(state.stored)
    began = state.draft.base_config if state.draft else state.stored
    origin = origin or (state.draft.origin if state.draft else "edit")
    state.draft = store_draft(state.company_id, config, base, state.rev, origin, began)
    _forget_cached(state)
    return state.draft


def _forget_cached(state: EditorState) -> None:
    for name in ("problems", "changes", "shape", "undone_texts"):
        state.__dict__.pop(name, None)


# -- guards of the writing views ------------------------------------------------------------------

def target(values) -> tuple[str, int | None]:
    """(section, index) from the request; index None means a new rule; 404 for an unknown
    section, 400 for an index that is not a number."""
    section = values.get("section") or "policies"
    if section not in SECTIONS:
        abort(404)
    return section, whole(values.get("index"), "index")


def refuse_if_misshapen(state):
    """A redirect to the editor (which lists the problems) when the draft cannot be edited as
    a form, else None."""
    return redirect_to(url_for("policy_editor.index")) if state.shape else None


def refuse_if_readonly(state):
    """A redirect to the editor when this session's token may not save, else None."""
    if not state.readonly:
        return None
    flash(_("Your token may not change the policies, so the editor is read-only."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def refuse_if_stale(state, posted_rev):
    """A redirect when the form was made from an older draft (another tab changed it)."""
    if str(posted_rev or "0") == str(state.rev):
        return None
    flash(_("The draft was changed in another window in the meantime. Here it is as it is "
            "now; please make your change again."), "warning")
    return redirect_to(url_for("policy_editor.index"))


def editor_url(section: str | None = None, index: int | None = None) -> str:
    """The editor, scrolled to one rule when given."""
    anchor = f"#rule-{section}-{index}" if section and index is not None else ""
    return url_for("policy_editor.index") + anchor
