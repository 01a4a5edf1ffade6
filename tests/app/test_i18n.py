"""Hungarian and English: locale choice, formatting filters, tolerant input parsers."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from flask_babel import force_locale

from app import create_app
from app.i18n import date_filter, money, number, parse_date, parse_decimal

NBSP = "\u00a0"


def test_default_locale_is_hungarian(app_config):
    config = {key: value for key, value in app_config.items() if key != "DEFAULT_LOCALE"}
    client = create_app(config).test_client()
    html = client.get("/login").get_data(as_text=True)
    assert '<html lang="hu">' in html
    assert "Bejelentkezés a Bookdeskbe" in html


def test_accept_language_is_used_when_no_choice_was_made(client):
    html = client.get("/login", headers={"Accept-Language": "hu-HU,hu;q=0.9"}).get_data(
        as_text=True)
    assert '<html lang="hu">' in html


def test_language_switch_is_remembered_in_session_and_returns_to_page(client):
    response = client.get("/lang/hu?next=/login%3Fcompany_id%3D5")
    assert response.status_code == 303
    assert response.headers["Location"] == "/login?company_id=5"
    html = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="hu">' in html
    client.get("/lang/en")
    assert '<html lang="en">' in client.get("/login").get_data(as_text=True)


def test_language_switch_refuses_unknown_locale_and_foreign_next(client):
    assert client.get("/lang/de").status_code == 404
    response = client.get("/lang/en?next=https://evil.example/")
    assert response.headers["Location"] == "/"


def test_hungarian_page_text_is_translated(client):
    client.get("/lang/hu")
    hu = client.get("/login").get_data(as_text=True)
    client.get("/lang/en")
    en = client.get("/login").get_data(as_text=True)
    assert "Sign in to Bookdesk" in en
    assert "Sign in to Bookdesk" not in hu


@pytest.mark.parametrize(("locale", "amount", "code", "expected"), [
    ("hu", "1234567.50", "HUF", f"1{NBSP}234{NBSP}568{NBSP}Ft"),
    ("hu", "1270.00", "EUR", f"1{NBSP}270,00{NBSP}EUR"),
    ("en", "1270.00", "EUR", "€1,270.00"),
    ("en", "-1234.4", "HUF", "-HUF1,234"),
    ("hu", "0", "USD", f"0,00{NBSP}USD"),
])
def test_money_formats_per_locale_with_huf_whole(app, locale, amount, code, expected):
    with app.test_request_context(), force_locale(locale):
        assert money(amount, code).replace("\u202f", NBSP) == expected


def test_money_tolerates_missing_values(app):
    with app.test_request_context():
        assert money(None, "HUF") == ""
        assert money("", "HUF") == ""


def test_number_and_date_filters_follow_locale(app):
    with app.test_request_context():
        with force_locale("hu"):
            assert number("1234.5", 2) == f"1{NBSP}234,50"
            assert date_filter("2024-03-05") == "2024. 03. 05."
        with force_locale("en"):
            assert number("1234.5", 2) == "1,234.50"
            assert date_filter(date(2024, 3, 5)) == "Mar 5, 2024"
            assert date_filter(None) == ""


@pytest.mark.parametrize(("text", "expected"), [
    ("1 234,50", "1234.50"),
    ("1234.50", "1234.50"),
    ("1.234,50", "1234.50"),
    ("1,234.50", "1234.50"),
    (f"1{NBSP}234{NBSP}567,5", "1234567.5"),
    ("1\u202f234", "1234"),
    ("-12,5", "-12.5"),
    ("+7", "7"),
    ("1.234.567", "1234567"),
    ("0,05", "0.05"),
    ("  42  ", "42"),
])
def test_parse_decimal_accepts_common_spellings(text, expected):
    assert parse_decimal(text) == Decimal(expected)


@pytest.mark.parametrize("text", ["", "   ", None])
def test_parse_decimal_blank_is_none(text):
    assert parse_decimal(text) is None


@pytest.mark.parametrize("text", ["abc", "1,2,3", "12.34.5", "1.23,4.5", "--5", "1e5", "5-"])
def test_parse_decimal_rejects_garbage_with_clear_error(text):
    with pytest.raises(ValueError, match="Not a valid number"):
        parse_decimal(text)


@pytest.mark.parametrize("text", ["2024.03.05.", "2024-03-05", "2024. 03. 05.", "2024/3/5",
                                  "2024.03.05"])
def test_parse_date_accepts_common_spellings(text):
    assert parse_date(text) == date(2024, 3, 5)


def test_parse_date_blank_is_none():
    assert parse_date("") is None and parse_date(None) is None


@pytest.mark.parametrize("text", ["2024-13-01", "2024-02-30", "05.03.2024", "tomorrow", "24-3-5"])
def test_parse_date_rejects_invalid_dates(text):
    with pytest.raises(ValueError, match="Not a valid date"):
        parse_date(text)
