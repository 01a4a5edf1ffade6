"""The request-memoised translation domain: same answers as Flask-Babel, one catalogue lookup
per request and locale, and a locale change inside a request still switches the language."""
from __future__ import annotations

import flask_babel
from flask_babel import force_locale, gettext, lazy_gettext

from app.i18n_domain import RequestDomain


def _counting(monkeypatch) -> list:
    calls = []
    original = flask_babel.Domain.get_translations

    def counted(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(flask_babel.Domain, "get_translations", counted)
    return calls


def test_the_app_uses_the_request_domain(app):
    with app.test_request_context("/"):
        assert isinstance(flask_babel.get_domain(), RequestDomain)


def test_catalogue_is_looked_up_once_per_request_and_locale(app, monkeypatch):
    calls = _counting(monkeypatch)
    with app.test_request_context("/"), force_locale("hu"):
        texts = {gettext("Incomes") for _ in range(50)}
        template = app.jinja_env.from_string(
            "{% for _i in range(50) %}{{ _('Incomes') }}{% endfor %}")
        rendered = template.render()
    assert texts == {"Bevételek"}
    assert rendered == "Bevételek" * 50
    assert len(calls) == 1


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
