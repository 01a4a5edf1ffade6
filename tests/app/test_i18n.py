"""Hungarian and English: locale choice and the formatting filters (parsing: test_numbers.py)."""
from __future__ import annotations

from datetime import date

import pytest
from flask_babel import force_locale

from app import create_app
from app.numbers import format_amount, format_date, format_number

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
    ("hu", "1234567.00", "HUF", f"1{NBSP}234{NBSP}567{NBSP}Ft"),
    ("hu", "1234567.50", "HUF", f"1{NBSP}234{NBSP}567,50{NBSP}Ft"),
    ("hu", "1270.00", "EUR", f"1{NBSP}270,00{NBSP}EUR"),
    ("en", "1270.00", "EUR", "€1,270.00"),
    ("en", "-1234", "HUF", "-HUF\xa01,234"),
    ("en", "-1234.4", "HUF", "-HUF\xa01,234.40"),
    ("hu", "0", "USD", f"0,00{NBSP}USD"),
])
def test_money_formats_per_locale_with_huf_whole_unless_it_has_filler(app, locale, amount, code,
                                                                      expected):
    with app.test_request_context(), force_locale(locale):
        assert format_amount(amount, code).replace("\u202f", NBSP) == expected


def test_money_tolerates_missing_values(app):
    with app.test_request_context():
        assert format_amount(None, "HUF") == ""
        assert format_amount("", "HUF") == ""


def test_number_and_date_filters_follow_locale(app):
    with app.test_request_context():
        with force_locale("hu"):
            assert format_number("1234.5", places=2) == f"1{NBSP}234,50"
            assert format_date("2024-03-05") == "2024. 03. 05."
        with force_locale("en"):
            assert format_number("1234.5", places=2) == "1,234.50"
            assert format_date(date(2024, 3, 5)) == "Mar 5, 2024"
            assert format_date(None) == ""
