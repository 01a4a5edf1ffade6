"""Limits on a policy configuration from outside the editor: a file, or a draft kept earlier.

A policy file is read with every number finite (NaN, Infinity and numbers too large for a float
are refused) and integers of at most MAX_DIGITS digits. Any configuration, read or stored, is
then walked (iteratively, so depth itself cannot exhaust the stack) for its nesting depth, its
number of values and rules and the length of its texts. What breaks a limit is a structural
problem: the editor shows it instead of the rules, and nothing is sent upstream.
"""
from __future__ import annotations

import json
import math

from app.policies import Problem
from app.policies.messages import N_

# The policy format nests 7 deep (config, policies, rule, set, split, part, tags); unknown
# keys are kept, so some room is left for them.
MAX_DEPTH = 16
MAX_VALUES = 50_000
MAX_RULES = 1_000
MAX_TEXT = 5_000
MAX_DIGITS = 30

NOT_FINITE = N_("The file holds %(value)s, which is not a number a policy can use. Write the "
                "number itself instead.")
TOO_MANY_DIGITS = N_("The file holds a number with more than %(max)s digits.")
TOO_DEEP = N_("The policy settings are nested more than %(max)s levels deep; policy settings "
              "are never nested that deep.")
TOO_MANY_VALUES = N_("The policy settings hold more than %(max)s values.")
TOO_MANY_RULES = N_("The policy settings hold more than %(max)s rules.")
TEXT_TOO_LONG = N_("The text at %(where)s is longer than %(max)s characters.")
NON_FINITE_VALUE = N_("The number at %(where)s is not finite (NaN or infinity); write a number "
                      "instead.")


class Refused(ValueError):
    """A number in the file that no policy can hold; problem says which."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def loads(text: str):
    """Parse JSON text with finite numbers only; Refused, ValueError or RecursionError else."""
    return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)


def _constant(name: str):
    raise Refused(Problem((), NOT_FINITE, {"value": name}))


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise Refused(Problem((), NOT_FINITE, {"value": text[:40]}))
    return number


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Refused(Problem((), TOO_MANY_DIGITS, {"max": MAX_DIGITS}))
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
        return Problem((), TOO_DEEP, {"max": MAX_DEPTH})
    if count > MAX_VALUES:
        return Problem((), TOO_MANY_VALUES, {"max": MAX_VALUES})
    if isinstance(node, str) and len(node) > MAX_TEXT:
        return Problem((), TEXT_TOO_LONG, {"max": MAX_TEXT, "where": where})
    if isinstance(node, float) and not math.isfinite(node):
        return Problem((), NON_FINITE_VALUE, {"where": where})
    if isinstance(node, int) and not isinstance(node, bool) and abs(node) >= 10**MAX_DIGITS:
        return Problem((), TOO_MANY_DIGITS, {"max": MAX_DIGITS})
    return None


def _rule_count(config) -> list[Problem]:
    if not isinstance(config, dict):
        return []
    rules = [config.get(key) for key in ("policies", "ignore_policies")]
    total = sum(len(found) for found in rules if isinstance(found, list))
    return [Problem((), TOO_MANY_RULES, {"max": MAX_RULES})] if total > MAX_RULES else []
