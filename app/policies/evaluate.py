"""evaluate(): what the policies do to one income.

Ignore rules run first; the first enabled one that matches skips the income. Then every enabled
policy is tested. When several match and skip_for_multiple_match is true, none applies and the
income needs review; otherwise the first match in list order wins.
"""

from dataclasses import dataclass, field

from . import messages as M
from .assignments import base_assignments, changed_fields, set_targets
from .conditions import rule_matches
from .facts import facts_from_income
from .names import names_to_create
from .problems import Problem, warning
from .schema import TARGET_KEYS, is_enabled, rules
from .split import split_assignments
from .validate import ensure_valid


@dataclass
class Outcome:
    """The result of evaluate(); assignments always holds what the income should carry."""

    ignored: bool = False
    ignored_by: str | None = None
    matched: list = field(default_factory=list)
    applied: int | None = None
    skipped_multiple: bool = False
    needs_review: bool = False
    assignments: list = field(default_factory=list)
    changes: dict = field(default_factory=dict)
    set_by: dict = field(default_factory=dict)
    to_create: dict = field(default_factory=dict)
    review_reason: Problem | None = None
    facts: dict = field(default_factory=dict)


def evaluate(config, income, currency_codes=None):
    """Run config's policies on income; raises InvalidConfig when config has errors."""
    ensure_valid(config)
    return evaluate_valid(config, income, currency_codes)


def evaluate_valid(config, income, currency_codes=None):
    """evaluate() for a config the caller has checked with ensure_valid() and not changed
    since: many incomes against one config pay for validation once, not once per income."""
    facts = facts_from_income(income, currency_codes)
    outcome = Outcome(assignments=base_assignments(income), facts=facts)
    for _, ignore_rule in _matching(rules(config, "ignore_policies"), facts):
        outcome.ignored, outcome.ignored_by = True, ignore_rule["name"]
        return outcome
    policies = rules(config, "policies")
    outcome.matched = [index for index, _ in _matching(policies, facts)]
    if len(outcome.matched) > 1 and config.get("skip_for_multiple_match"):
        names = ", ".join(policies[index]["name"] for index in outcome.matched)
        return _review(outcome, warning((), M.REVIEW_MULTIPLE, names=names), skipped=True)
    if outcome.matched:
        _apply(outcome, outcome.matched[0], policies[outcome.matched[0]])
    return outcome


def _matching(rule_list, facts):
    return (
        (index, rule)
        for index, rule in enumerate(rule_list)
        if is_enabled(rule) and rule_matches(rule, facts)
    )


def _review(outcome, reason, skipped=False):
    outcome.needs_review, outcome.review_reason, outcome.skipped_multiple = True, reason, skipped
    return outcome


def _apply(outcome, index, policy):
    actions = policy.get("set") or {}
    if actions.get("split") is None:
        result = [set_targets(item, actions) for item in outcome.assignments]
    else:
        result = split_assignments(outcome.assignments, actions)
    if isinstance(result, Problem):
        return _review(outcome, result)
    outcome.applied = index
    outcome.changes = changed_fields(outcome.assignments, result)
    outcome.set_by = dict.fromkeys(_keys_set(actions), policy["name"])
    outcome.assignments = result
    outcome.to_create = names_to_create(result)
    return outcome


def _keys_set(actions):
    parts = actions.get("split") or []
    return [
        key
        for key in TARGET_KEYS + ("split",)
        if actions.get(key) is not None or any(part.get(key) is not None for part in parts)
    ]
