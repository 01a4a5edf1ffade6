"""The income-policy engine: validate, evaluate and compare income_policies (pure Python).

No Flask, HTTP or database here: the sandbox runs it when it imports an income and the policy
editor uses it to validate, preview and summarise changes.

Rules callers rely on:
- null means no policies. Unknown keys anywhere are kept (validate only warns), and nothing here
  mutates the config or the income it is given.
- evaluate() raises InvalidConfig (a ValueError) when validate() finds errors; warnings pass.
  evaluate_valid() skips that check for many incomes against one config checked once with
  ensure_valid().
- Missing "enabled" means enabled, missing "match" means "all", a rule without conditions matches
  every income (a warning for policies, an error for ignore rules).
- The first enabled ignore rule that matches skips the income; no policy runs.
- Several matching policies: with skip_for_multiple_match none applies and the income needs
  review; without it the first match in list order wins.
- "set" keys that are absent or null leave the assignment as it is; tags are replaced, not added.
- Splits: amount parts are gross amounts taken first (with the income's sign); percent parts share
  the rest and must add up to 100. Without percent parts the amounts must equal the gross, else the
  income needs review. Policy-level fields are defaults for every part.
- Records named by string rather than id are listed in Outcome.to_create under "revenue_types",
  "tags" or "ledger_numbers"; apply_names(outcome, resolve) swaps them for resolve(kind, name).
"""

from .diff import Change, diff_configs
from .evaluate import Outcome, evaluate, evaluate_valid
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
from .validate import ensure_valid, validate

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
    "ensure_valid",
    "evaluate",
    "evaluate_valid",
    "facts_from_income",
    "has_errors",
    "names_in_config",
    "validate",
]
