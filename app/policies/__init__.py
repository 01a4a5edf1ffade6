"""The income-policy engine: validate, evaluate and compare income_policies (pure Python).

No Flask, HTTP or database here: the sandbox runs it when it imports an income and the policy
editor uses it to validate, preview and summarise changes.
"""

from .diff import Change, diff_configs
from .evaluate import Outcome, evaluate
from .facts import facts_from_income
from .messages import N_
from .names import apply_names, names_in_config
from .problems import ERROR, WARNING, InvalidConfig, Problem, has_errors
from .schema import (
    FIELDS,
    LEDGER_NUMBERS,
    MATCH_MODES,
    NUMERIC_FIELDS,
    OPS,
    REVENUE_TYPES,
    TAGS,
    TEXT_FIELDS,
    empty_config,
)
from .validate import validate

__all__ = [
    "ERROR",
    "FIELDS",
    "LEDGER_NUMBERS",
    "MATCH_MODES",
    "N_",
    "NUMERIC_FIELDS",
    "OPS",
    "REVENUE_TYPES",
    "TAGS",
    "TEXT_FIELDS",
    "WARNING",
    "Change",
    "InvalidConfig",
    "Outcome",
    "Problem",
    "apply_names",
    "diff_configs",
    "empty_config",
    "evaluate",
    "facts_from_income",
    "has_errors",
    "names_in_config",
    "validate",
]
