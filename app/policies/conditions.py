"""Whether a rule's conditions hold for an income's facts."""

import operator
import re

from .facts import normalize_tax_number
from .numbers import to_decimal
from .schema import NUMERIC_FIELDS


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
        result = _text(op, field, facts.get(field), value)
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


def _text(op, field, fact, value):
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
