"""Decimal helpers: amounts arrive as decimal strings and split parts must add up exactly."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_decimal(value):
    """Return value as a finite Decimal, or None when it is not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        # repr() keeps 0.1 as 0.1 instead of its binary expansion.
        number = Decimal(repr(value) if isinstance(value, float) else value)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


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
