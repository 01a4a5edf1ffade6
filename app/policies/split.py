"""Splitting an income into one assignment per split part.

Amount parts are gross amounts, taken first and with the income's sign (so a storno splits like
its original). Percent parts share what is left and must add up to 100; without percent parts the
amounts must add up to the gross exactly. Rounding remainders go to the last percent part (gross)
and the last part (net), so the parts add up to the income's totals to the cent.
"""

from . import messages as M
from .assignments import set_targets
from .numbers import ZERO, distribute, money, money_text, to_decimal
from .problems import warning


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
