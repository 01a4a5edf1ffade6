"""Decimal helpers: amounts arrive as decimal strings and split parts must add up exactly.

Upstream values become Decimals with app/numbers.py `to_decimal` (imported here for the
policy modules)."""

from decimal import ROUND_HALF_UP, Decimal

from app.numbers import to_decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


__all__ = ["CENT", "ZERO", "distribute", "money", "money_text", "to_decimal"]


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
