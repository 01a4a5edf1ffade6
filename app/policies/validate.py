"""validate(): every problem in an income-policy configuration, located by path."""

from . import messages as M
from .problems import InvalidConfig, error, has_errors, unknown_keys, warning
from .schema import CONFIG_KEYS, IGNORE_KEYS, MATCH_MODES, POLICY_KEYS, VERSION
from .validate_conditions import check_conditions
from .validate_set import check_set


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
