"""app.numbers: typed numbers, amounts, percentages and dates read strictly by the page's locale.

The full table of accepted and refused forms is docs/number-input.md
(test_number_input_table.py); here: the rules behind it, blanks, limits and upstream values.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from app.numbers import (
    InputError,
    amount_places,
    format_moment,
    format_month,
    format_percent,
    moment_key,
    month_key,
    parse_amount,
    parse_date,
    parse_moment,
    parse_month,
    parse_number,
    parse_percent,
    to_decimal,
)


@pytest.mark.parametrize("locale", ["hu", "en"])
@pytest.mark.parametrize("text", ["", "   ", None, "\u00a0"])
def test_blank_input_is_none_in_every_parser(locale, text):
    assert parse_number(text, locale) is None
    assert parse_amount(text, "HUF", locale) is None
    assert parse_percent(text, locale) is None
    assert parse_date(text, locale) is None
    assert parse_month(text, locale) is None
    assert parse_moment(text, locale) is None


@pytest.mark.parametrize(("text", "locale", "expected"), [
    ("1 234,50", "hu", "1234.50"), ("1,234.50", "en", "1234.50"),
    ("1.234,50", "hu", "1234.50"), ("1.234.567", "hu", "1234567"),
    ("1,234,567", "en", "1234567"), ("1\u00a0234\u00a0567,5", "hu", "1234567.5"),
    ("1\u202f234", "en", "1234"), ("-12,5", "hu", "-12.5"), ("\u221212.5", "en", "-12.5"),
    ("+7", "hu", "7"), ("  42  ", "en", "42"), ("0,05", "hu", "0.05"),
])
def test_the_pages_own_spellings_are_read(text, locale, expected):
    assert parse_number(text, locale) == Decimal(expected)


@pytest.mark.parametrize(("text", "locale", "first", "second"), [
    ("1.234", "hu", "1234", "1,234"),
    ("100.000", "hu", "100000", "100,000"),
    ("1,234", "en", "1234", "1.234"),
    ("-100,000", "en", "-100000", "-100.000"),
])
def test_a_number_two_conventions_read_differently_is_refused_with_both_spellings(
        text, locale, first, second):
    with pytest.raises(InputError) as refused:
        parse_number(text, locale)
    message = str(refused.value)
    assert text in message and f" {first} " in message and f"{second}." in message


@pytest.mark.parametrize("locale", ["hu", "en"])
@pytest.mark.parametrize("text", ["abc", "1,2,3", "12.34.5", "1.23,4.5", "--5", "1e5", "5-",
                                  "NaN", "Infinity", "1 23", "1.234 567", "\u0661\u0662", "5."])
def test_text_no_convention_reads_is_refused(locale, text):
    with pytest.raises(InputError):
        parse_number(text, locale)


def test_the_other_conventions_decimal_mark_is_read_when_it_cannot_be_grouping():
    assert parse_number("12.34", "hu") == Decimal("12.34")
    assert parse_number("1,5", "en") == Decimal("1.5")


@pytest.mark.parametrize(("text", "places"), [("1,234", 2), ("0,001", 2), ("12,5", 0)])
def test_more_decimals_than_the_field_holds_is_refused_never_rounded(text, places):
    with pytest.raises(InputError, match="decimal place|whole number"):
        parse_number(text, "hu", places=places)


def test_trailing_zeros_beyond_the_places_change_nothing_and_are_accepted():
    assert parse_number("12,5000", "hu", places=2) == Decimal("12.5")


def test_amounts_hold_twelve_digits_before_the_point_and_two_after():
    assert parse_amount("999 999 999 999,99", "EUR", "hu") == Decimal("999999999999.99")
    for text in ("1 000 000 000 000", "99999999999999999999999"):
        with pytest.raises(InputError, match="12"):
            parse_amount(text, "EUR", "hu")
    with pytest.raises(InputError):
        parse_amount("10,005", "HUF", "hu")


def test_an_amount_may_carry_its_currency_symbol():
    assert parse_amount("1 234,50 EUR", "EUR", "hu") == Decimal("1234.50")
    assert parse_amount("-€1,234.50", "EUR", "en") == Decimal("-1234.50")


def test_amount_places_follow_the_currency_up_to_the_apis_two():
    assert (amount_places("HUF"), amount_places("JPY"), amount_places(None)) == (2, 0, 2)
    with pytest.raises(InputError, match="whole number"):
        parse_amount("12,5", "JPY", "hu")


def test_minimum_and_maximum_are_field_errors():
    with pytest.raises(InputError, match="at least"):
        parse_number("-1", "en", minimum=Decimal(0))
    with pytest.raises(InputError, match="at most"):
        parse_number("101", "en", maximum=Decimal(100))


def test_percentages_take_a_percent_sign_and_stay_within_0_and_100():
    assert parse_percent("27 %", "hu") == Decimal(27)
    assert parse_percent("5,5%", "hu") == Decimal("5.5")
    with pytest.raises(InputError):
        parse_percent("127", "en")
    assert parse_percent(format_percent("5.5", "hu"), "hu") == Decimal("5.5")


@pytest.mark.parametrize(("text", "locale"), [
    ("2024-03-05", "en"), ("2024.03.05.", "hu"), ("2024. 03. 05.", "hu"), ("2024/3/5", "en"),
    ("2024. márc. 5.", "hu"), ("2024. március 5.", "hu"), ("Mar 5, 2024", "en"),
    ("March 5, 2024", "en"),
])
def test_dates_are_read_year_first_or_with_the_locales_month_names(text, locale):
    assert parse_date(text, locale) == date(2024, 3, 5)


@pytest.mark.parametrize("text", ["2024-13-01", "2024-02-30", "05.03.2024", "3/5/2024",
                                  "tomorrow", "24-3-5", "Foo 5, 2024"])
def test_dates_that_are_impossible_or_in_an_ambiguous_order_are_refused(text):
    with pytest.raises(InputError, match="Mar 5, 2024"):
        parse_date(text, "en")


@pytest.mark.parametrize(("text", "locale"), [
    ("2026-11", "hu"), ("2026-11", "en"), ("2026. 11.", "hu"), ("2026.11.", "hu"),
    ("2026/11", "en"), ("2026. november", "hu"), ("2026. nov.", "hu"), ("November 2026", "en"),
    ("Nov 2026", "en"), ("2026-11-24", "en"), ("2026. 11. 24.", "hu"), ("Nov 24, 2026", "en"),
])
def test_months_are_read_by_number_by_the_locales_names_or_as_any_day_in_them(text, locale):
    assert parse_month(text, locale) == date(2026, 11, 1)


@pytest.mark.parametrize(("locale", "example"), [("hu", "2024. március"), ("en", "March 2024")])
@pytest.mark.parametrize("text", ["2026-13", "13/2026", "March", "Brumaire 2026", "2026"])
def test_an_unreadable_month_is_refused_with_an_example_in_the_locales_words(locale, example,
                                                                            text):
    with pytest.raises(InputError, match=example) as refused:
        parse_month(text, locale)
    assert refused.value.reason == "date"


def test_months_are_written_in_the_locales_words_and_urls_keep_yyyy_mm():
    assert format_month("2026-11-01", "hu") == "2026. november"
    assert format_month("2026-11", "en") == "November 2026"
    assert format_month(date(2026, 3, 9), "hu") == "2026. március"
    assert format_month("not a month", "en") == ""
    assert month_key(date(2026, 11, 1)) == "2026-11" and month_key(None) == ""


@pytest.mark.parametrize(("text", "locale"), [
    ("2026. 11. 24. 14:30", "hu"), ("2026.11.24. 14:30", "hu"), ("2026-11-24 14:30", "hu"),
    ("2026-11-24T14:30", "en"), ("2026-11-24T14:30:00", "en"), ("Nov 24, 2026, 2:30 PM", "en"),
    ("Nov 24, 2026 2:30 pm", "en"), ("November 24, 2026, 14:30", "en"),
    ("2026. nov. 24. 14:30", "hu"), ("2026. 11. 24. 2:30 du.", "hu"),
])
def test_date_and_time_are_read_in_the_locales_forms_and_iso(text, locale):
    assert parse_moment(text, locale) == datetime(2026, 11, 24, 14, 30)


def test_a_day_alone_is_its_midnight_and_seconds_and_fractions_are_kept():
    assert parse_moment("2026. 11. 24.", "hu") == datetime(2026, 11, 24)
    assert parse_moment("2026-11-24T14:30:05.25", "en") == datetime(2026, 11, 24, 14, 30, 5,
                                                                    250000)
    assert parse_moment("Nov 24, 2026, 12:00 AM", "en") == datetime(2026, 11, 24, 0, 0)
    assert parse_moment("Nov 24, 2026, 12:00 PM", "en") == datetime(2026, 11, 24, 12, 0)


def test_an_hour_a_twelve_hour_clock_reads_two_ways_is_refused_with_both_spellings():
    with pytest.raises(InputError) as refused:
        parse_moment("Nov 24, 2026, 2:30", "en")
    assert refused.value.reason == "ambiguous"
    assert "2:30 AM" in str(refused.value) and "2:30 PM" in str(refused.value)
    assert parse_moment("Nov 24, 2026, 14:30", "en") == datetime(2026, 11, 24, 14, 30)
    assert parse_moment("2026. 11. 24. 2:30", "hu") == datetime(2026, 11, 24, 2, 30)


@pytest.mark.parametrize(("locale", "example"), [("hu", "2024. 03. 05. 14:30"),
                                                 ("en", "Mar 5, 2024, 2:30 PM")])
@pytest.mark.parametrize("text", ["yesterday", "2026-02-30 10:00", "2026-11-24 24:00",
                                  "2026-11-24 10:60", "Nov 24, 2026, 13:00 PM",
                                  "11/24/26, 2:30 PM", "2026-11-24 10:00 xyz"])
def test_an_unreadable_date_and_time_is_refused_with_the_locales_example(locale, example, text):
    with pytest.raises(InputError, match=example):
        parse_moment(text, locale)


def test_date_and_time_are_written_as_the_inputs_show_them_and_urls_keep_iso():
    moment = datetime(2026, 11, 24, 14, 30)
    assert format_moment(moment, "hu") == "2026. 11. 24. 14:30"
    assert format_moment(moment, "en") == "Nov 24, 2026, 2:30 PM"
    assert format_moment(moment.replace(second=5), "hu") == "2026. 11. 24. 14:30:05"
    assert moment_key(moment) == "2026-11-24T14:30"
    assert moment_key(moment.replace(second=5)) == "2026-11-24T14:30:05"


@pytest.mark.parametrize(("value", "expected"), [
    ("1270.00", Decimal("1270.00")), (5, Decimal(5)), (0.1, Decimal("0.1")),
    (Decimal("2.5"), Decimal("2.5")), (None, None), ("", None), ("x", None), (True, None),
    ("NaN", None), ("Infinity", None), ([1], None),
])
def test_to_decimal_reads_upstream_values_and_nothing_else(value, expected):
    assert to_decimal(value) == expected


def test_input_error_is_a_value_error_with_a_message():
    with pytest.raises(ValueError) as refused:
        parse_number("x", "en")
    assert str(refused.value.message) == str(refused.value)
