"""validate(): every problem in an income-policy configuration (format version 2, whose
vocabulary is in app/policies/labels.py), located by its path.

Null means no policies and is valid. Unknown keys anywhere are kept (validate only warns); an
error blocks saving and evaluating, a warning does not. Missing "enabled" means enabled, missing
"match" means "all"; a rule without conditions is a warning for policies and an error for ignore
rules. Percent split parts must add up to exactly 100.
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal

import app.policies.labels as M
from app.numbers import to_decimal
from app.policies.labels import (
    CONDITION_KEYS,
    CONFIG_KEYS,
    FIELDS,
    IGNORE_KEYS,
    MATCH_MODES,
    NUMERIC_FIELDS,
    NUMERIC_OPS,
    OPS,
    PART_KEYS,
    POLICY_KEYS,
    SET_KEYS,
    TEXT_OPS,
    VERSION,
)


def empty_config():
    """Return a fresh configuration with no policies."""
    return {"v": VERSION, "skip_for_multiple_match": False, "policies": [], "ignore_policies": []}


def rules(config, key):
    """Return the list under key ("policies" or "ignore_policies"), empty when absent."""
    if not isinstance(config, dict):
        return []
    found = config.get(key)
    return found if isinstance(found, list) else []


def is_enabled(rule):
    """Tell whether a rule takes part in evaluation (a missing "enabled" means yes)."""
    return rule.get("enabled", True) is not False


# -- problems -------------------------------------------------------------------------------------

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem(M.Worded):
    """A validation finding; message is an English msgid with %(name)s placeholders."""

    path: tuple
    message: str
    params: dict = field(default_factory=dict)
    level: str = ERROR


def error(path, message, **params):
    """Build an error-level Problem."""
    return Problem(tuple(path), message, params, ERROR)


def warning(path, message, **params):
    """Build a warning-level Problem."""
    return Problem(tuple(path), message, params, WARNING)


def has_errors(problems):
    """Tell whether any problem is an error (warnings do not block saving)."""
    return any(problem.level == ERROR for problem in problems)


def unknown_keys(mapping, known, path):
    """Warn about keys the engine does not use; they are kept, never rejected."""
    return [
        warning(tuple(path) + (key,), M.UNKNOWN_KEY, key=str(key))
        for key in mapping
        if key not in known
    ]


class InvalidConfig(ValueError):
    """Raised by evaluate() when the configuration has errors; .problems lists them."""

    def __init__(self, problems):
        super().__init__("; ".join(problem.text() for problem in problems))
        self.problems = problems


# -- the whole configuration and its rules --------------------------------------------------------

def validate(config):
    """Return the list of Problems in config; null is a valid "no policies" configuration."""
    if config is None:
        return []
    if not isinstance(config, dict):
        return [error((), M.CONFIG_NOT_OBJECT)]
    problems = unknown_keys(config, CONFIG_KEYS, ()) + _check_version(config)
    switch = config.get("skip_for_multiple_match", False)
    if not isinstance(switch, bool):
        problems.append(error(("skip_for_multiple_match",), M.NOT_BOOL))
    problems += _check_rules(config.get("policies", []), ("policies",), ignore_rules=False)
    problems += _check_rules(
        config.get("ignore_policies", []), ("ignore_policies",), ignore_rules=True
    )
    return problems


def ensure_valid(config):
    """Raise InvalidConfig when config has errors (warnings pass)."""
    problems = validate(config)
    if has_errors(problems):
        raise InvalidConfig([problem for problem in problems if problem.level == "error"])


def _check_version(config):
    if "v" not in config:
        return [error(("v",), M.VERSION_MISSING)]
    found = config["v"]
    if isinstance(found, str):  # else "2" would read as "version 2; only version 2 ..."
        return [error(("v",), M.VERSION_NOT_NUMBER, found=found)]
    if isinstance(found, bool) or found != VERSION:
        return [error(("v",), M.VERSION_UNSUPPORTED, found=str(found))]
    return []


def _check_rules(rules, path, *, ignore_rules):
    if not isinstance(rules, list):
        return [error(path, M.NOT_LIST)]
    problems = []
    for index, rule in enumerate(rules):
        problems += _check_rule(rule, path + (index,), ignore_rules)
    return problems + _duplicate_names(rules, path)


def _check_rule(rule, path, ignore_rule):
    if not isinstance(rule, dict):
        return [error(path, M.RULE_NOT_OBJECT)]
    problems = unknown_keys(rule, IGNORE_KEYS if ignore_rule else POLICY_KEYS, path)
    name = rule.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(error(path + ("name",), M.NAME_MISSING))
    if not isinstance(rule.get("enabled", True), bool):
        problems.append(error(path + ("enabled",), M.NOT_BOOL))
    if rule.get("match", "all") not in MATCH_MODES:
        problems.append(error(path + ("match",), M.MATCH_INVALID))
    conditions = rule.get("conditions", [])
    problems += check_conditions(conditions, path + ("conditions",), ignore_rule=ignore_rule)
    if not ignore_rule:
        problems += check_set(rule.get("set"), path + ("set",))
    return problems


def _duplicate_names(rules, path):
    seen, problems = set(), []
    for index, rule in enumerate(rules):
        name = rule.get("name") if isinstance(rule, dict) else None
        if not isinstance(name, str) or not name.strip():
            continue
        key = name.strip().casefold()
        if key in seen:
            problems.append(warning(path + (index, "name"), M.NAME_DUPLICATE, name=name))
        seen.add(key)
    return problems


# -- conditions -----------------------------------------------------------------------------------

def check_conditions(conditions, path, *, ignore_rule):
    """Check a rule's condition list; an empty list is an error only for ignore rules."""
    if not isinstance(conditions, list):
        return [error(path, M.NOT_LIST)]
    if not conditions:
        return [
            error(path, M.IGNORE_NO_CONDITIONS) if ignore_rule else warning(path, M.NO_CONDITIONS)
        ]
    problems = []
    for index, condition in enumerate(conditions):
        problems += check_condition(condition, path + (index,))
    return problems


def check_condition(condition, path):
    """Check one {"field", "op", "value"} condition."""
    if not isinstance(condition, dict):
        return [error(path, M.CONDITION_NOT_OBJECT)]
    field, op = condition.get("field"), condition.get("op")
    found = _check_name(field, FIELDS, path + ("field",), M.FIELD_MISSING, M.FIELD_UNKNOWN, "field")
    found += _check_name(op, OPS, path + ("op",), M.OP_MISSING, M.OP_UNKNOWN, "op")
    if not found:
        found = _check_pairing(field, op, path + ("op",))
    if not found:
        found = check_value(field, op, condition.get("value"), path + ("value",))
    return unknown_keys(condition, CONDITION_KEYS, path) + found


def _check_name(name, known, path, missing, unknown, param):
    if name is None or name == "":
        return [error(path, missing)]
    if not isinstance(name, str) or name not in known:
        return [error(path, unknown, **{param: str(name)})]
    return []


def _check_pairing(field, op, path):
    numeric = field in NUMERIC_FIELDS
    if numeric and op in TEXT_OPS:
        return [error(path, M.TEXT_OP_ON_NUMBER, field=field, op=op)]
    if not numeric and op in NUMERIC_OPS:
        return [error(path, M.NUMBER_OP_ON_TEXT, field=field, op=op)]
    return []


def check_value(field, op, value, path):
    """Check that value suits op on field (the pairing itself is already valid)."""
    if op == "between":
        return _check_between(value, path)
    if op == "in":
        return _check_in(field, value, path)
    if op == "regex":
        return _check_regex(value, path)
    if op in TEXT_OPS:
        return _check_search_text(value, path)
    return _check_scalar(field, value, path)


def _check_between(value, path):
    bounds = [to_decimal(item) for item in value] if isinstance(value, list) else []
    if len(bounds) != 2 or None in bounds or bounds[0] > bounds[1]:
        return [error(path, M.BETWEEN_INVALID)]
    return []


def _check_in(field, value, path):
    if not isinstance(value, list) or not value:
        return [error(path, M.IN_INVALID)]
    problems = []
    for index, item in enumerate(value):
        problems += _check_scalar(field, item, path + (index,))
    return problems


def _check_regex(value, path):
    problems = _check_search_text(value, path)
    if problems:
        return problems
    try:
        re.compile(value, re.IGNORECASE)
    except re.error as exc:  # its own text is English; where it stumbled is not
        return [error(path, M.REGEX_INVALID, position=(exc.pos or 0) + 1)]
    return []


def _check_search_text(value, path):
    if not isinstance(value, str):
        return [error(path, M.NEED_TEXT)]
    return [] if value else [error(path, M.EMPTY_TEXT)]


def _check_scalar(field, value, path):
    if field in NUMERIC_FIELDS:
        return [] if to_decimal(value) is not None else [error(path, M.NEED_NUMBER)]
    if not isinstance(value, str):
        return [error(path, M.NEED_TEXT)]
    if field == "currency" and not re.fullmatch(r"[A-Za-z]{3}", value):
        return [error(path, M.CURRENCY_CODE)]
    return []


# -- what a policy sets, splits -------------------------------------------------------------------

def check_set(actions, path):
    """Check a policy's "set" object; null or absent sets nothing (a warning)."""
    if actions is None:
        return [warning(path, M.SETS_NOTHING)]
    if not isinstance(actions, dict):
        return [error(path, M.SET_NOT_OBJECT)]
    problems = unknown_keys(actions, SET_KEYS, path) + check_targets(actions, path)
    if actions.get("split") is not None:
        problems += check_split(actions["split"], path + ("split",))
    if all(actions.get(key) is None for key in SET_KEYS):
        problems.append(warning(path, M.SETS_NOTHING))
    return problems


def check_targets(values, path):
    """Check revenue_type, ledger_number, job_number and tags (each optional)."""
    problems = []
    for key in ("revenue_type", "ledger_number"):
        if values.get(key) is not None and not is_reference(values[key]):
            problems.append(error(path + (key,), M.REF_INVALID))
    job_number = values.get("job_number")
    if job_number is not None and not isinstance(job_number, str):
        problems.append(error(path + ("job_number",), M.JOB_NUMBER_INVALID))
    return problems + _check_tags(values.get("tags"), path + ("tags",))


def is_reference(value):
    """Tell whether value names a record: a positive id, or a non-blank name to create."""
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _check_tags(tags, path):
    if tags is None:
        return []
    if not isinstance(tags, list):
        return [error(path, M.TAGS_NOT_LIST)]
    return [
        error(path + (i,), M.TAG_INVALID) for i, tag in enumerate(tags) if not is_reference(tag)
    ]


def check_split(parts, path):
    """Check split parts; percent parts must add up to exactly 100."""
    if not isinstance(parts, list) or not parts:
        return [error(path, M.SPLIT_EMPTY)]
    problems = []
    for index, part in enumerate(parts):
        problems += _check_part(part, path + (index,))
    percents = [to_decimal(part.get("percent")) for part in parts if _is_percent_part(part)]
    if None in percents:
        return problems
    total = sum(percents, Decimal(0))
    if percents and total != 100:
        problems.append(error(path, M.PERCENT_SUM, total=_plain(total)))
    return problems


def _is_percent_part(part):
    """Parts with both keys are reported as such, not counted towards the percent total."""
    return isinstance(part, dict) and part.get("percent") is not None and part.get("amount") is None


def _check_part(part, path):
    if not isinstance(part, dict):
        return [error(path, M.PART_NOT_OBJECT)]
    problems = unknown_keys(part, PART_KEYS, path) + check_targets(part, path)
    percent, amount = part.get("percent"), part.get("amount")
    if percent is None and amount is None:
        return problems + [error(path, M.PART_EMPTY)]
    if percent is not None and amount is not None:
        return problems + [error(path, M.PART_KIND)]
    if percent is not None:
        return problems + _check_percent(percent, path + ("percent",))
    return problems + _check_amount(amount, path + ("amount",))


def _check_percent(value, path):
    number = to_decimal(value)
    if number is None or not 0 < number <= 100:
        return [error(path, M.PERCENT_RANGE)]
    return []


def _check_amount(value, path):
    number = to_decimal(value)
    if number is None or number <= 0:
        return [error(path, M.AMOUNT_NOT_POSITIVE)]
    if number.normalize().as_tuple().exponent < -2:
        return [error(path, M.AMOUNT_PLACES)]
    return []


def _plain(number):
    """Format a Decimal without exponent or trailing zeros, for messages."""
    text = f"{number:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
