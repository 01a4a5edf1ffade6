"""How the sandbox reads a decimal in a request body, against DRF's DecimalField(14, places):
the digits as written decide (trailing zeros count), and the schema states the same limits."""
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox.core.values import FieldError, parse_money, parse_rate
from sandbox.schema.components_common import AMOUNT_IN, RATE_IN

WRITTEN = st.tuples(st.sampled_from(["", "-"]), st.text("0123456789", min_size=1, max_size=16),
                    st.text("0123456789", max_size=8))


def _digits(whole: str, decimals: str) -> tuple[int, int]:
    """Digits before and after the point as written, leading zeros of the whole part left out."""
    return len(whole.lstrip("0")), len(decimals)


@given(written=WRITTEN, places=st.sampled_from([2, 4, 6]))
def test_a_written_decimal_is_read_exactly_when_its_digits_fit_and_refused_otherwise(written,
                                                                                    places):
    sign, whole, decimals = written
    text = f"{sign}{whole}.{decimals}" if decimals else f"{sign}{whole}"
    before, after = _digits(whole, decimals)
    fits = after <= places and before <= 14 - places and before + after <= 14
    try:
        value = parse_money(text, places=places)
    except FieldError:
        assert not fits, text
    else:
        assert fits and value == Decimal(text), text


@pytest.mark.parametrize(("text", "message"), [
    ("5000.000", "no more than 2 decimal places"),
    ("123456789012.345", "no more than 14 digits in total"),
    ("1E+14", "no more than 14 digits in total"),
    ("1000000000000", "no more than 12 digits before the decimal point"),
])
def test_drf_s_message_names_the_limit_the_written_digits_pass(text, message):
    with pytest.raises(FieldError, match=message):
        parse_money(text)


@given(whole=st.integers(0, 10**14), decimals=st.text("0123456789", max_size=8),
       schema=st.sampled_from([(RATE_IN, parse_rate), (AMOUNT_IN, parse_money)]))
def test_the_schema_s_pattern_admits_exactly_the_strings_the_api_reads(whole, decimals, schema):
    text = f"{whole}.{decimals}" if decimals else str(whole)
    alternatives, parse = schema
    pattern = alternatives["anyOf"][0]["pattern"]
    try:
        read = parse(text) is not None
    except FieldError:
        read = False
    assert bool(re.fullmatch(pattern, text)) == read or Decimal(text) == 0, text


def test_the_schema_s_number_range_is_the_range_of_rates_the_api_reads():
    number = RATE_IN["anyOf"][1]
    assert parse_rate(number["maximum"]) == Decimal("99999999.999999")
    for outside in (number["exclusiveMinimum"], 100000000):
        with pytest.raises(FieldError):
            parse_rate(outside)
