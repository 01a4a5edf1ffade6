"""The fast money formatter writes exactly what Babel's format_currency writes."""
from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal

import pytest
from babel.numbers import format_currency, get_currency_symbol

from app.numbers import currency_format

VALUES = [Decimal(v) for v in ("0", "-0.00", "0.004", "0.005", "1", "-1", "999.995", "1000",
                               "1234.5", "-1234.5", "12345678.905", "-987654321.125")]
random.seed(11)
VALUES += [Decimal(random.randint(-10**11, 10**11)).scaleb(-3) for _ in range(300)]


def babel_money(value: Decimal, code: str, locale: str) -> str:
    """Babel's own rendering with the same rule: cents rounded half up; forints without fillér
    whole, everything else with two decimals."""
    value = value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    digits = 0 if code == "HUF" and value == value.to_integral_value() else 2
    pattern = {"hu": "#,##0.00\xa0¤", "en": "¤#,##0.00"}[locale]
    pattern = pattern.replace(".00", "." + "0" * digits if digits else "")
    text = format_currency(value, code, format=pattern, locale=locale, currency_digits=False)
    # CLDR's currencySpacing, which Babel leaves out: a letter symbol stays apart from digits.
    symbol = get_currency_symbol(code, locale)
    return text.replace(symbol, symbol + "\xa0") if locale == "en" and symbol.isalpha() else text


@pytest.mark.parametrize("locale", ["hu", "en"])
@pytest.mark.parametrize("code", ["HUF", "EUR", "USD"])
def test_fast_format_equals_babel(locale, code):
    fmt = currency_format(locale, code)
    for value in VALUES:
        assert fmt.apply(value) == babel_money(value, code, locale), value


def test_forints_are_whole_and_grouped_in_hungarian():
    assert currency_format("hu", "HUF").apply(Decimal("1234567.00")) == "1\xa0234\xa0567\xa0Ft"


def test_forints_with_filler_show_them_so_no_shown_amount_is_rounded():
    assert currency_format("hu", "HUF").apply(Decimal("138997.69")) == "138\xa0997,69\xa0Ft"
    assert currency_format("hu", "HUF").apply(Decimal("1234567.5")) == "1\xa0234\xa0567,50\xa0Ft"
    assert currency_format("en", "HUF").apply(Decimal("-0.5")) == "-HUF\xa00.50"
    assert currency_format("hu", "HUF").apply(Decimal("99.999")) == "100\xa0Ft"


def test_a_currency_code_symbol_is_spaced_from_the_digits_as_cldr_says():
    assert currency_format("en", "HUF").apply(Decimal("1234")) == "HUF\xa01,234"
    assert currency_format("en", "CHF").apply(Decimal("-5")) == "-CHF\xa05.00"
    assert currency_format("en", "USD").apply(Decimal("5")) == "$5.00"


def test_euro_keeps_its_cents_in_english():
    assert currency_format("en", "EUR").apply(Decimal("-1234.5")) == "-€1,234.50"
