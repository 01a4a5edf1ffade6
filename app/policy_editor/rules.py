"""Changes to the rule lists of a configuration: pure functions returning a new config."""
from __future__ import annotations

import copy

from flask_babel import gettext as _

from app.policies import empty_config

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
