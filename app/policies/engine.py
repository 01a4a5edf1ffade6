"""evaluate(): what the policies do to one income (pure Python: no Flask, HTTP or database).

The sandbox runs it when it imports an income; the editor's preview and the review queue run it
too. Nothing here mutates the config or the income it is given.
- evaluate() raises InvalidConfig (a ValueError) when validate() finds errors; warnings pass.
  evaluate_valid() skips that check for many incomes against one config checked once with
  ensure_valid().
- Ignore rules run first; the first enabled one that matches skips the income, no policy runs.
- Several matching policies: with skip_for_multiple_match none applies and the income needs
  review; without it the first match in list order wins.
- What a matching policy sets on the income's assignments (and how it splits them) is in
  app/policies/assignments.py.
"""

import operator
import re
from dataclasses import dataclass, field

import app.policies.labels as M
from app.numbers import to_decimal
from app.policies.assignments import (
    base_assignments,
    changed_fields,
    names_to_create,
    set_targets,
    split_assignments,
)
from app.policies.labels import NUMERIC_FIELDS, TARGET_KEYS
from app.policies.validate import Problem, ensure_valid, is_enabled, rules, warning


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


# -- facts ----------------------------------------------------------------------------------------

def facts_from_income(income, currency_codes=None):
    """Flatten an upstream income (list or detail shape) into {condition field: value}."""
    partner = income.get("partner") if isinstance(income.get("partner"), dict) else {}
    return {
        "partner_name": _text(income.get("partner_name") or partner.get("name")),
        "partner_tax_number": normalize_tax_number(
            _text(income.get("partner_tax_number") or partner.get("tax_number"))
        ),
        "invoice_number": _text(income.get("invoice_number")),
        "note": _text(income.get("note")),
        "currency": _currency(income.get("currency"), currency_codes or {}),
        "vat_area": _text(income.get("vat_area")),
        "gross_amount": to_decimal(income.get("gross_amount")),
        "net_amount": to_decimal(income.get("net_amount")),
        "type": _income_type(income),
        "source": _text(income.get("source")) or "manual",
    }


def normalize_tax_number(text):
    """Drop dashes and spaces: the upstream stores "12345678-2-41" as "12345678241"."""
    return text.replace("-", "").replace(" ", "") if isinstance(text, str) else text


def _text(value):
    if isinstance(value, dict):
        value = value.get("name")
    if value is None or isinstance(value, bool):
        return None
    return value if isinstance(value, str) else str(value)


def _currency(value, codes):
    """Return the currency code: ids go through the catalogue, objects carry their name."""
    if isinstance(value, dict):
        code = codes.get(value.get("id")) or value.get("code") or value.get("name")
    elif isinstance(value, int) and not isinstance(value, bool):
        code = codes.get(value)
    elif isinstance(value, str) and value.isdigit():
        code = codes.get(int(value))
    else:
        code = value
    return code.upper() if isinstance(code, str) and code else None


def _income_type(income):
    value = income.get("type", income.get("income_type"))
    if isinstance(value, dict):
        value = value.get("id")
    return to_decimal(value)


# -- conditions -----------------------------------------------------------------------------------

def rule_matches(rule, facts):
    """Tell whether rule holds: "all" or "any" of its conditions; no conditions always holds."""
    conditions = rule.get("conditions") or []
    if not conditions:
        return True
    results = (condition_holds(condition, facts) for condition in conditions)
    return any(results) if rule.get("match") == "any" else all(results)


def condition_holds(condition, facts):
    """Evaluate one valid condition; every not_* op is the exact negation of its positive op."""
    field, op, value = condition["field"], condition["op"], condition.get("value")
    negate = op.startswith("not_")
    op = op.removeprefix("not_")
    if field in NUMERIC_FIELDS:
        result = _numeric(op, facts.get(field), value)
    else:
        result = _text_test(op, field, facts.get(field), value)
    return result != negate


_NUMERIC_TESTS = {
    "equals": operator.eq,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
}


def _numeric(op, fact, value):
    if fact is None:
        return False
    if op == "between":
        return to_decimal(value[0]) <= fact <= to_decimal(value[1])
    if op == "in":
        return any(fact == to_decimal(item) for item in value)
    return _NUMERIC_TESTS[op](fact, to_decimal(value))


_TEXT_TESTS = {
    "equals": operator.eq,
    "contains": operator.contains,
    "starts_with": str.startswith,
    "ends_with": str.endswith,
}


def _text_test(op, field, fact, value):
    text = fact or ""
    if op == "regex":
        # The pattern is not case-folded: that would turn escapes like \D into \d.
        return re.search(value, _fold(field, text, casefold=False), re.IGNORECASE) is not None
    if op == "in":
        return _fold(field, text) in {_fold(field, item) for item in value}
    return _TEXT_TESTS[op](_fold(field, text), _fold(field, value))


def _fold(field, text, casefold=True):
    if field == "partner_tax_number":
        text = normalize_tax_number(text)
    return text.casefold() if casefold else text
