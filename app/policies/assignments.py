"""Assignments before and after a policy: the baseline, setting targets, and what changed."""

from .numbers import ZERO, money_text, to_decimal

AMOUNT_KEYS = ("net_amount", "vat_amount", "gross_amount")
# Where each "set" key lands on an assignment.
TARGET_TO_ASSIGNMENT = {
    "revenue_type": "revenue_type",
    "job_number": "job_number",
    "ledger_number": "ledger_number_id",
    "tags": "tags",
}


def base_assignments(income):
    """Return the income's assignments, or one mirroring its totals when it has none."""
    existing = [item for item in income.get("assignments") or [] if isinstance(item, dict)]
    if existing:
        return [_normalized(item) for item in existing]
    return [_normalized({key: income.get(key) for key in AMOUNT_KEYS})]


def _totals(amounts):
    """Fill a missing amount from the other two (gross = net + vat)."""
    net, vat, gross = (to_decimal(amounts.get(key)) for key in AMOUNT_KEYS)
    if gross is None:
        gross = (net or ZERO) + (vat or ZERO)
    if net is None:
        net = gross - (vat or ZERO)
    if vat is None:
        vat = gross - net
    return {"net_amount": net, "vat_amount": vat, "gross_amount": gross}


def _normalized(assignment):
    """Copy an assignment with ids for references and amounts as decimal strings."""
    result = {
        "revenue_type": None,
        "job_number": None,
        "ledger_number_id": None,
        "tags": [],
        "vat": None,
    }
    result.update(assignment)
    result["revenue_type"] = _id_of(result["revenue_type"])
    result["tags"] = [_id_of(tag) for tag in result["tags"] or []]
    result.update({key: money_text(value) for key, value in _totals(result).items()})
    return result


def _id_of(value):
    return value.get("id") if isinstance(value, dict) else value


def set_targets(assignment, values):
    """Copy assignment with every target values sets (null or absent leaves it as it is)."""
    result = dict(assignment)
    for key, target in TARGET_TO_ASSIGNMENT.items():
        if values.get(key) is not None:
            result[target] = values[key]
    if values.get("tags") is not None:
        result["tags"] = list(dict.fromkeys(values["tags"]))
    return result


def changed_fields(before, after):
    """Return {set key: (before, after)} for what differs; several values show as a list."""
    changes = {}
    for key, target in TARGET_TO_ASSIGNMENT.items():
        old, new = _summary(before, target), _summary(after, target)
        if old != new:
            changes[key] = (old, new)
    old_split = [item["gross_amount"] for item in before]
    new_split = [item["gross_amount"] for item in after]
    if old_split != new_split:
        changes["split"] = (old_split, new_split)
    return changes


def _summary(assignments, key):
    values = [item.get(key) for item in assignments]
    if not values:
        return None
    return values[0] if all(value == values[0] for value in values) else values
