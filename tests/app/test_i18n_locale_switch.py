"""Translations follow the locale: a locale change inside a request switches the language (in
Python and in Jinja), and each request starts from its own locale."""
from __future__ import annotations

from flask_babel import force_locale, gettext, lazy_gettext


def test_a_locale_change_inside_a_request_switches_the_language(app):
    label = lazy_gettext("Incomes")
    with app.test_request_context("/"), force_locale("hu"):
        assert str(label) == "Bevételek"
        with force_locale("en"):
            assert str(label) == "Incomes"
            assert app.jinja_env.from_string("{{ _('Incomes') }}").render() == "Incomes"
        assert gettext("Incomes") == "Bevételek"


def test_each_request_starts_from_its_own_locale(client):
    english = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    hungarian = client.get("/login", headers={"Accept-Language": "hu"}).get_data(as_text=True)
    assert "Sign in to Bookdesk" in english
    assert "Bejelentkezés a Bookdeskbe" in hungarian
