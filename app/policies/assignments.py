"""What a matching policy does to an income's assignments: set targets, split, name records.

- "set" keys that are absent or null leave the assignment as it is; tags are replaced, not added.
- Splits: amount parts are gross amounts taken first, with the income's sign (so a storno splits
  like its original). Percent parts share what is left and must add up to 100; without percent
  parts the amounts must add up to the gross exactly, else the income needs review. Rounding
  remainders go to the last percent part (gross) and the last part (net), so the parts add up to
  the income's totals to the cent. Policy-level fields are defaults for every part.
- Records named by string rather than id are listed in Outcome.to_create under "revenue_types",
  "tags" or "ledger_numbers"; apply_names(outcome, resolve) swaps them for resolve(kind, name).
"""

from decimal import ROUND_HALF_UP, Decimal

import app.policies.labels as M
from app.numbers import to_decimal
from app.policies.labels import LEDGER_NUMBERS, REVENUE_TYPES, TAGS
from app.policies.validate import rules, warning
from app.upstream.responses import ref

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
    result["revenue_type"] = ref(result["revenue_type"])
    result["tags"] = [ref(tag) for tag in result["tags"] or []]
    result.update({key: money_text(value) for key, value in _totals(result).items()})
    return result


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


# -- splits ---------------------------------------------------------------------------------------

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def money(value):
    """Round a Decimal to cents, halves away from zero."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def money_text(value):
    """Format a Decimal amount the way the upstream sends amounts ("1270.00")."""
    rounded = money(value)
    return str(rounded if rounded else ZERO)


def distribute(total, weights):
    """Share total in proportion to weights; the last share takes the rounding remainder."""
    weight_sum = sum(weights, Decimal(0))
    if not weight_sum:
        return [ZERO] * (len(weights) - 1) + [total]
    shares = [money(total * weight / weight_sum) for weight in weights[:-1]]
    return shares + [total - sum(shares, ZERO)]


def split_assignments(base, actions):
    """Return the split assignments, or a Problem saying why the income needs review instead."""
    if any(item.get("vat") != base[0].get("vat") for item in base):
        return warning((), M.REVIEW_SPLIT_VAT)
    net = sum((to_decimal(item["net_amount"]) for item in base), ZERO)
    gross = sum((to_decimal(item["gross_amount"]) for item in base), ZERO)
    parts = actions["split"]
    grosses = part_grosses(parts, gross)
    if not isinstance(grosses, list):
        return grosses
    nets = distribute(net, grosses)
    template = set_targets(base[0], actions)
    return [
        _part_assignment(template, part, part_net, part_gross)
        for part, part_net, part_gross in zip(parts, nets, grosses, strict=True)
    ]


def part_grosses(parts, gross):
    """Return each part's gross amount, or a review Problem when amounts do not fit."""
    sign = -1 if gross < 0 else 1
    fixed = [_fixed(part, sign) for part in parts]
    fixed_sum = sum((amount for amount in fixed if amount is not None), ZERO)
    percents = [to_decimal(part["percent"]) for part in parts if _is_percent(part)]
    if not percents and fixed_sum != gross:
        return _mismatch(M.REVIEW_SPLIT_MISMATCH, fixed_sum, gross)
    if abs(fixed_sum) > abs(gross):
        return _mismatch(M.REVIEW_SPLIT_EXCEEDS, fixed_sum, gross)
    shares = iter(distribute(gross - fixed_sum, percents)) if percents else iter(())
    return [amount if amount is not None else next(shares) for amount in fixed]


def _is_percent(part):
    return part.get("percent") is not None


def _fixed(part, sign):
    return None if _is_percent(part) else money(to_decimal(part["amount"])) * sign


def _mismatch(message, parts, gross):
    return warning((), message, parts=money_text(parts), gross=money_text(gross))


def _part_assignment(template, part, net, gross):
    result = set_targets(template, part)
    result["net_amount"] = money_text(net)
    result["vat_amount"] = money_text(gross - net)
    result["gross_amount"] = money_text(gross)
    return result


# -- records named by string ----------------------------------------------------------------------

# Assignment key (and "set" key) -> record kind.
_ASSIGNMENT_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number_id": LEDGER_NUMBERS}
_SET_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number": LEDGER_NUMBERS}


def names_to_create(assignments):
    """Return {kind: sorted names} for the records assignments name instead of id."""
    return _collect(assignments, _ASSIGNMENT_REFS)


def names_in_config(config):
    """Return {kind: sorted names} for every record any policy or split part names by string."""
    found = []
    for policy in rules(config, "policies"):
        actions = policy.get("set") if isinstance(policy, dict) else None
        if isinstance(actions, dict):
            found.append(actions)
            found += [part for part in actions.get("split") or [] if isinstance(part, dict)]
    return _collect(found, _SET_REFS)


def _collect(items, refs):
    found = {}
    for item in items:
        for key, kind in refs.items():
            if isinstance(item.get(key), str):
                found.setdefault(kind, set()).add(item[key])
        tags = item.get("tags")
        for tag in tags if isinstance(tags, list) else []:
            if isinstance(tag, str):
                found.setdefault(TAGS, set()).add(tag)
    return {kind: sorted(names) for kind, names in sorted(found.items())}


def apply_names(outcome, resolve):
    """Return outcome's assignments with every name replaced by resolve(kind, name)'s id."""
    ids = {
        (kind, name): resolve(kind, name)
        for kind, names in names_to_create(outcome.assignments).items()
        for name in names
    }
    return [_resolved(item, ids) for item in outcome.assignments]


def _resolved(assignment, ids):
    result = dict(assignment)
    for key, kind in _ASSIGNMENT_REFS.items():
        if isinstance(result.get(key), str):
            result[key] = ids[(kind, result[key])]
    result["tags"] = list(
        dict.fromkeys(ids[(TAGS, tag)] if isinstance(tag, str) else tag for tag in result["tags"])
    )
    return result
