"""CLDR everywhere: currency names by the page's locale, one percent style (Babel's), raw
enumeration values never shown, identifiers in their usual grouping."""
from __future__ import annotations

import re
from decimal import Decimal

from app.identifiers import show_bank_account, show_tax_number
from app.numbers import currency_name, format_percent
from app.templating import source_label
from tests.app.conftest import csrf_token, sign_in, signed_in
from tests.app.incomes_helpers import make_income
from tests.support.routes import RouteSampler, SampleContext


def currencies_page(client, company, lang: str) -> str:
    signed_in(client, company)
    client.get(f"/lang/{lang}")
    return client.get(f"/c/{company.id}/currencies/").get_data(as_text=True)


def test_an_english_currencies_page_names_currencies_in_english(client, company):
    html = currencies_page(client, company, "en")
    assert "Hungarian Forint" in html and "Euro" in html
    assert "magyar forint" not in html and "euró" not in html


def test_a_hungarian_currencies_page_names_currencies_in_hungarian(client, company):
    html = currencies_page(client, company, "hu")
    assert "magyar forint" in html and "euró" in html and "Hungarian Forint" not in html


def test_a_code_cldr_does_not_know_keeps_the_catalogues_name():
    assert currency_name("XQQ", "Saját pénz", "en") == "Saját pénz"


def test_percent_has_one_style_the_locales_cldr_pattern():
    assert format_percent(27, "hu") == "27%" and format_percent(27, "en") == "27%"
    assert format_percent(Decimal("5.5"), "hu") == "5,5%"
    assert format_percent(Decimal("5.5"), "en") == "5.5%"
    assert format_percent(27.0, "hu") == "27%"


def test_sources_always_have_labels(app):
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        shown = {code: source_label(code) for code in ("manual", "api", "nav", "szamlazz.hu",
                                                       "billingo", None, "new-thing")}
    assert shown["manual"] == shown[None] != "manual"
    assert shown["nav"] == "NAV" and shown["szamlazz.hu"] == "Számlázz.hu"
    assert shown["new-thing"] == "Integráció (new-thing)"
    assert shown["api"] != "api"


def test_tax_and_bank_account_numbers_show_in_their_groups():
    assert show_tax_number("12345676242") == "12345676-2-42"
    assert show_bank_account("1177301611111111") == "11773016-11111111"
    assert show_bank_account("117730161111111100000000") == "11773016-11111111-00000000"
    assert show_bank_account("HU42117730161111101800000000") == "HU42 1177 3016 1111 1018 0000 0000"


def test_form_validation_messages_on_a_hungarian_page_are_hungarian(client):
    client.get("/lang/hu")
    page = client.get("/login").get_data(as_text=True)
    response = client.post("/login", data={"csrf_token": csrf_token(page), "token": "x" * 600,
                                           "name": "", "company_id": "abc"})
    html = response.get_data(as_text=True)
    assert response.status_code in (200, 400)
    assert "Legfeljebb 512 karakter." in html and "Adja meg a nevét" in html
    for english in ("Not a valid integer", "Field cannot be longer", "This field is required",
                    "At most 512 characters", "Enter your name."):
        assert english not in html, english


def test_an_income_detail_shows_the_source_label_never_the_raw_value(client, company, api):
    made = make_income(api, type=1, source="szamlazz.hu")
    signed_in(client, company)
    html = client.get(f"/c/{company.id}/incomes/{made['id']}").get_data(as_text=True)
    text = re.sub(r"<[^>]+>", " ", html)
    assert "Számlázz.hu" in text and "szamlazz.hu" not in text


BROWSER_PICKER = re.compile(r'<input[^>]*\stype="(?:date|month|datetime-local|week|time)"')


def test_no_page_draws_a_date_picker_in_the_browsers_language(app, company, sandbox_url):
    # Chromium draws these inputs in its own language whatever the page's: every day, month
    # and date-and-time field is text in the page's language (app/templating.py).
    client = app.test_client()
    sign_in(client, company)
    paths = [route.path for route in RouteSampler(app, SampleContext(sandbox_url, company))
             .get_routes()]
    assert f"/c/{company.id}/expenses/" in paths and f"/c/{company.id}/taxes/new" in paths
    pages = dict(_read(client, path) for path in paths)
    assert [path for path, (status, _html) in pages.items() if status >= 500] == []
    assert sum(status == 200 for status, _html in pages.values()) > len(paths) // 2
    drawn = [path for path, (_status, html) in pages.items() if BROWSER_PICKER.search(html)]
    assert drawn == []


def _read(client, path: str) -> tuple[str, tuple[int, str]]:
    """(path, (status, body)); a file's body is not text and is left out; the response is
    closed (exports stream)."""
    response = client.get(path)
    try:
        text = response.mimetype.startswith("text/")
        return path, (response.status_code, response.get_data(as_text=True) if text else "")
    finally:
        response.close()
