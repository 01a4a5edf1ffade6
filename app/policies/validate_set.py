"""Validation of what a policy sets, including splits into several assignments."""

from decimal import Decimal

from . import messages as M
from .numbers import to_decimal
from .problems import error, unknown_keys, warning
from .schema import PART_KEYS, SET_KEYS


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
    if (percent is None) == (amount is None):
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
