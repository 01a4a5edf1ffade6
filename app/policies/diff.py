"""diff_configs(): what saving a new configuration changes, for the editor's summary."""

from dataclasses import dataclass, field

import app.policies.messages as M
from app.policies.validate import CONFIG_KEYS, IGNORE_KEYS, POLICY_KEYS, is_enabled, rules


@dataclass(frozen=True)
class Change:
    """One line of the summary; kind is like "policy_added" or "ignore_moved"."""

    kind: str
    message: str
    params: dict = field(default_factory=dict)

    def text(self, gettext=None):
        """Return the message filled in, translated by gettext when one is given."""
        return (gettext or str)(self.message) % self.params


def diff_configs(old, new):
    """List the changes from old to new; null on either side means no policies."""
    changes = []
    if new is None and old is not None:
        changes.append(Change("deleted", M.CONFIG_DELETED))
    old, new = _as_config(old), _as_config(new)
    changes += _switch_changes(old, new)
    changes += _rule_list_changes(rules(old, "policies"), rules(new, "policies"), "policy")
    changes += _rule_list_changes(
        rules(old, "ignore_policies"), rules(new, "ignore_policies"), "ignore"
    )
    if _others(old, CONFIG_KEYS) != _others(new, CONFIG_KEYS):
        changes.append(Change("other", M.OTHER_SETTINGS))
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


def _rule_list_changes(old_list, new_list, section):
    old, new = _keyed(old_list), _keyed(new_list)
    messages = M.POLICY_CHANGES if section == "policy" else M.IGNORE_CHANGES

    def change(what, key, **params):
        return Change(f"{section}_{what}", messages[what], {"name": key[0], **params})

    changes = [change("removed", key) for key in old if key not in new]
    for key, rule in new.items():
        if key not in old:
            changes.append(change("added", key))
        else:
            changes += [change(what, key) for what in _rule_changes(old[key], rule, section)]
    positions = {key: index + 1 for index, key in enumerate(new)}
    moved = _moved([key for key in old if key in new], [key for key in new if key in old])
    return changes + [change("moved", key, position=positions[key]) for key in moved]


def _rule_changes(old, new, section):
    whats = []
    if is_enabled(old) != is_enabled(new):
        whats.append("enabled" if is_enabled(new) else "disabled")
    if old.get("match", "all") != new.get("match", "all"):
        whats.append("match_any" if new.get("match") == "any" else "match_all")
    if (old.get("conditions") or []) != (new.get("conditions") or []):
        whats.append("conditions")
    if section == "policy" and old.get("set") != new.get("set"):
        whats.append("actions")
    known = POLICY_KEYS if section == "policy" else IGNORE_KEYS
    if _others(old, known) != _others(new, known):
        whats.append("changed")
    return whats


def _others(mapping, known):
    return {key: value for key, value in mapping.items() if key not in known}


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
