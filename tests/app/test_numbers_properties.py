"""Properties of app/numbers.py: what Bookdesk writes reads back as the same value, in every
locale and currency the product shows, at every magnitude the API stores; and reading never
changes a number's magnitude (the digits typed are the digits kept, or the text is refused)."""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal

import pytest
from flask_babel import force_locale
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.forms.registry import AMOUNT, PERCENT, RATE, RATE_MAX
from app.numbers import (
    WHOLE_CURRENCIES,
    InputError,
    amount_places,
    api_text,
    at_rate,
    at_rate_parts,
    format_amount,
    format_date,
    format_moment,
    format_month,
    format_number,
    marks,
    parse_amount,
    parse_date,
    parse_moment,
    parse_month,
    parse_number,
)
from sandbox.catalog.seed import CURRENCIES

LOCALES = ("hu", "en")
CODES = tuple(code for code, _name in CURRENCIES)
PURE = settings(max_examples=200, deadline=None)
# The app fixture only gives a request context; nothing in it changes between examples.
IN_APP = settings(max_examples=200, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])


def decimals(places: int, integer_digits: int = 12):
    """Signed Decimals with up to integer_digits before the point and exactly places after,
    spread over every magnitude (each digit count is as likely as the next)."""
    def build(negative, size, whole, fraction):
        text = f"{whole % 10 ** size}" + (f".{fraction:0{places}d}" if places else "")
        return -Decimal(text) if negative else Decimal(text)
    return st.builds(build, st.booleans(), st.integers(0, integer_digits),
                     st.integers(0, 10 ** integer_digits - 1),
                     st.integers(0, 10 ** places - 1))


@PURE
@given(locale=st.sampled_from(LOCALES), places=st.sampled_from((0, 2, 4, 6)), data=st.data())
def test_what_an_input_shows_reads_back_exactly(locale, places, data):
    value = data.draw(decimals(places, 12 if places <= 2 else 10))
    text = format_number(value, locale, grouping=False)
    assert parse_number(text, locale, places=places) == value


@IN_APP
@given(locale=st.sampled_from(LOCALES), value=decimals(2))
def test_form_kinds_round_trip_through_their_input_text(app, locale, value):
    with app.test_request_context("/"), force_locale(locale):
        assert AMOUNT.parse(AMOUNT.to_form(value)) == value
        small = value.scaleb(-2)
        if abs(small) < Decimal("1e10"):
            assert PERCENT.parse(PERCENT.to_form(small)) == small
        # A rate is above 0 and within DecimalField(14, 6); below 0 it is refused (test_forms).
        if 0 < abs(small) <= RATE_MAX:
            assert RATE.parse(RATE.to_form(abs(small))) == abs(small)


@PURE
@given(locale=st.sampled_from(LOCALES), code=st.sampled_from(CODES), data=st.data())
def test_a_displayed_amount_reads_back_or_is_refused_as_ambiguous(locale, code, data):
    value = data.draw(decimals(amount_places(code)))
    text = format_amount(value, code, locale)
    try:
        assert parse_amount(text, code, locale) == value, text
    except InputError as refused:
        # Only English whole forints with one comma group (HUF 1,234) can be refused: 1,234
        # is 1.234 to a Hungarian reader. Nothing else a page shows is.
        assert (locale, refused.reason) == ("en", "ambiguous"), text
        assert code in WHOLE_CURRENCIES and value == value.to_integral_value()
        assert 1000 <= abs(value) < 1_000_000


@PURE
@given(code=st.sampled_from(CODES), data=st.data())
def test_every_hungarian_amount_reads_back_exactly(code, data):
    value = data.draw(decimals(amount_places(code)))
    assert parse_amount(format_amount(value, code, "hu"), code, "hu") == value


RATES = st.decimals(min_value=Decimal("0.0001"), max_value=Decimal("1000"), places=6)


@PURE
@given(items=st.lists(st.tuples(decimals(2, 9), RATES), min_size=1, max_size=12))
def test_amounts_converted_at_their_rates_add_up_to_their_shown_total(items):
    def shown(value):
        return parse_amount(format_amount(value, "HUF", "hu"), "HUF", "hu")
    converted = [at_rate(value, rate) for value, rate in items]
    total = sum(converted, Decimal(0))
    assert [shown(value) for value in converted] == converted
    assert sum((shown(value) for value in converted), Decimal(0)) == shown(total)


@PURE
@given(parts=st.lists(decimals(2, 9), min_size=1, max_size=12), rate=RATES,
       code=st.sampled_from(CODES))
@example(parts=[Decimal("-0.01"), Decimal("0.02")], rate=Decimal("0.5"), code="HUF")  # a unit off
def test_parts_converted_at_a_rate_add_up_to_their_sum_converted(parts, rate, code):
    unit = Decimal(1).scaleb(-amount_places(code))
    converted = at_rate_parts(parts, rate, code)
    assert sum(converted, Decimal(0)) == at_rate(sum(parts, Decimal(0)), rate, code)
    assert all(value == value.quantize(unit) for value in converted)
    # Each rounding of the running sum is off by half a unit at most, so a part by one.
    assert all(abs(value - part * rate) <= unit for value, part in zip(converted, parts,
                                                                        strict=True))
    assert at_rate_parts(parts[:1], rate, code) == [at_rate(parts[0], rate, code)]


@PURE
@given(locale=st.sampled_from(LOCALES), value=decimals(2))
def test_forints_are_shown_whole_only_when_they_carry_no_filler(locale, value):
    shown = format_amount(value, "HUF", locale)
    decimal_mark = {"hu": ",", "en": "."}[locale]
    assert (decimal_mark in shown) == (value != value.to_integral_value()), shown


@PURE
@given(locale=st.sampled_from(LOCALES), value=decimals(2))
def test_an_amount_with_decimals_reads_back_in_every_locale(locale, value):
    for code in ("EUR", "USD", None):
        assert parse_amount(format_amount(value, code, locale), code, locale) == value


@PURE
@given(locale=st.sampled_from(LOCALES), places=st.integers(0, 4), data=st.data())
def test_a_grouped_number_reads_back_or_is_refused_as_ambiguous(locale, places, data):
    value = data.draw(decimals(places))
    text = format_number(value, locale, places=places)
    try:
        assert parse_number(text, locale) == value
    except InputError as refused:
        assert (locale, places, refused.reason) == ("en", 0, "ambiguous")


@IN_APP
@given(locale=st.sampled_from(LOCALES),
       day=st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_a_displayed_date_reads_back(app, locale, day):
    with app.test_request_context("/"), force_locale(locale):
        assert parse_date(format_date(day)) == day
        assert parse_date(day.isoformat()) == day


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text).lstrip("0")


@PURE
@given(locale=st.sampled_from(LOCALES),
       text=st.text(alphabet="0123456789.,  \u00a0\u202f-\u2212+", min_size=1, max_size=22))
def test_reading_keeps_the_digits_typed_and_the_pages_decimal_mark(locale, text):
    try:
        value = parse_number(text, locale)
    except InputError:
        return
    if value is None:
        assert not text.strip(" \u00a0\u202f")
        return
    assert _digits(format(value, "f")) == _digits(text)
    decimal, _group = marks(locale)
    if "." in text and "," in text:  # both marks: the last one is the decimal, either way
        decimal = text[max(text.rfind("."), text.rfind(","))]
    if decimal in text:
        typed = text.rpartition(decimal)[2].strip(" \u00a0\u202f")
        assert format(abs(value), "f").partition(".")[2] == typed


@PURE
@given(locale=st.sampled_from(LOCALES), head=st.integers(1, 999), tail=st.integers(0, 999),
       negative=st.booleans())
def test_one_foreign_decimal_mark_before_three_digits_is_always_refused(locale, head, tail,
                                                                        negative):
    other_mark = marks(locale)[1]
    text = f"{'-' if negative else ''}{head}{other_mark}{tail:03d}"
    with pytest.raises(InputError) as refused:
        parse_number(text, locale)
    assert refused.value.reason == "ambiguous"


@PURE
@given(locale=st.sampled_from(LOCALES), places=st.integers(0, 2), head=st.integers(1, 999),
       kept=st.integers(0, 99), negative=st.booleans())
def test_zeros_past_the_fields_places_that_the_other_convention_groups_are_refused(
        locale, places, head, kept, negative):
    # 100,000 in a two-place field: 100 to the page's mark only because the zeros change
    # nothing, 100000 to the other convention. Each spelling offered reads back as one reading.
    tail = f"{kept % 10 ** places:0{places}d}".ljust(3, "0") if places else "000"
    sign = "-" if negative else ""
    text = f"{sign}{head}{marks(locale)[0]}{tail}"
    with pytest.raises(InputError) as refused:
        parse_number(text, locale, places=places)
    assert refused.value.reason == "ambiguous"
    offered = re.findall(r"(?:Write|or) (\S+?)\.?(?: |$)", str(refused.value))
    readings = {parse_number(spelling, locale, places=places) for spelling in offered}
    assert readings == {Decimal(f"{sign}{head}.{tail}"), Decimal(f"{sign}{head}{tail}")}


@PURE
@given(locale=st.sampled_from(LOCALES), head=st.integers(1, 999),
       groups=st.lists(st.integers(0, 999), min_size=1, max_size=3), tail=st.integers(0, 999),
       negative=st.booleans())
def test_space_groups_before_a_foreign_mark_and_three_digits_are_refused(locale, head, groups,
                                                                        tail, negative):
    middle = "".join(f" {group:03d}" for group in groups)
    text = f"{'-' if negative else ''}{head}{middle}{marks(locale)[1]}{tail:03d}"
    with pytest.raises(InputError) as refused:
        parse_number(text, locale)
    assert refused.value.reason == "ambiguous"


@PURE
@given(locale=st.sampled_from(LOCALES), negative=st.booleans(), whole=st.integers(0, 10 ** 12 - 1),
       fraction=st.text(alphabet="0123456789", min_size=20, max_size=45))
def test_a_long_decimal_tail_is_read_exactly_or_refused_never_rounded(locale, negative, whole,
                                                                      fraction):
    text = f"{'-' if negative else ''}{whole}{marks(locale)[0]}{fraction}"
    typed = Decimal(f"{'-' if negative else ''}{whole}.{fraction}")
    assert parse_number(text, locale) == typed
    try:
        assert parse_amount(text, None, locale) == typed
    except InputError as refused:
        assert refused.reason == "places" and typed != typed.quantize(Decimal("0.01"))


@PURE
@given(locale=st.sampled_from(LOCALES), value=decimals(2).filter(lambda v: v != 0),
       extra=st.integers(1, 5))
def test_beyond_the_apis_range_or_precision_is_refused_never_altered(locale, value, extra):
    too_big = (Decimal(10) ** (11 + extra) + abs(value)).copy_sign(value)
    too_precise = value + Decimal(1).scaleb(-2 - extra)
    for text in (format_number(too_big, locale, grouping=False),
                 format_number(too_precise, locale, grouping=False)):
        with pytest.raises(InputError):
            parse_amount(text, None, locale)


@PURE
@given(locale=st.sampled_from(LOCALES),
       moment=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(9999, 12, 31))
       .map(lambda moment: moment.replace(microsecond=0)))
def test_a_date_and_time_as_its_input_shows_it_reads_back_as_the_same_moment(locale, moment):
    assert parse_moment(format_moment(moment, locale), locale) == moment


@PURE
@given(locale=st.sampled_from(LOCALES),
       day=st.dates(min_value=date(1900, 1, 1), max_value=date(9999, 12, 31)))
def test_a_month_as_its_input_shows_it_reads_back_as_the_same_month(locale, day):
    assert parse_month(format_month(day, locale), locale) == day.replace(day=1)


@PURE
@given(value=decimals(2), shifted=st.booleans())
def test_api_text_is_plain_digits_that_read_back_as_the_amount(value, shifted):
    # normalize() writes 1000.00 as 1E+3: the API text never has an exponent.
    text = api_text(value.normalize() if shifted else value)
    assert re.fullmatch(r"-?[0-9]+\.[0-9]{2}", text) and not re.fullmatch(r"-0\.00", text)
    assert Decimal(text) == value
