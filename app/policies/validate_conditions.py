"""Validation of a rule's conditions: known field, known comparison, a value that fits both."""

import re

from . import messages as M
from .numbers import to_decimal
from .problems import error, unknown_keys, warning
from .schema import CONDITION_KEYS, FIELDS, NUMERIC_FIELDS, NUMERIC_OPS, OPS, TEXT_OPS


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
    except re.error as exc:
        return [error(path, M.REGEX_INVALID, error=str(exc))]
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
