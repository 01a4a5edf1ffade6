"""Every upstream error of the spec's error table reaches a Hungarian page in Hungarian.

Each row of the table is produced by the sandbox from real bad input, sent through Bookdesk's own
upstream client (app/upstream/), and shown the way Bookdesk shows it: 400s through
app.upstream.errors.upstream_messages on the error page, 401 and 403 through the registered
handlers (the message path only). Some rows are also driven through their real pages over HTTP, each
checked to have reached the sandbox and been refused there: the partner create form (tax
number and name collisions), the partner edit form (a partner from an integration), the
expense list's "changed since" filter (full resync required) and the tax list's source filter.
"""
from __future__ import annotations

import re

import pytest
import requests
from flask import get_flashed_messages

from app.errors import error_response
from app.upstream import UpstreamError, ValidationError
from app.upstream import expenses as expenses_api
from app.upstream import incomes as incomes_api
from app.upstream import partners as partners_api
from app.upstream import taxes as taxes_api
from app.upstream.client import UpstreamClient
from app.upstream.errors import upstream_messages, upstream_text
from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import catalogue as expense_catalogue
from tests.app.expenses_helpers import make_expense
from tests.app.incomes_helpers import make_income, page_form
from tests.sandbox.incomes_support import income_body, read_catalogue

# Hungarian shares a few short words ("a", "is", "be", "partner"): those are left out.
ENGLISH_WORDS = {"the", "are", "of", "and", "with", "must", "this", "tax", "number", "name",
                 "not", "already", "exists", "field", "may", "only", "can", "valid", "choice",
                 "format", "wrong",
                 "required", "use", "one", "these", "instead", "file", "company",
                 "invoice", "exchange", "rate", "empty", "list", "true", "sent", "together",
                 "after", "its", "end", "token", "older", "than", "days", "full", "query",
                 "available", "choices", "select", "upload", "content", "whatever", "says",
                 "none", "an", "at", "least", "for", "in", "by", "income", "booked",
                 "authentication", "enabled", "permission", "changed"}
TAG = re.compile(r"<[^>]+>")


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words in a text: an English sentence, not a name."""
    words = re.findall(r"[A-Za-zÀ-ž_]+", text)
    runs, current = [], []
    for word in words:
        if word.lower() in ENGLISH_WORDS:
            current.append(word)
            continue
        if len(current) >= 3:
            runs.append(" ".join(current))
        current = []
    if len(current) >= 3:
        runs.append(" ".join(current))
    return runs


def visible(html: str) -> str:
    """The page's text without tags, scripts and the hidden inputs' values."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return TAG.sub(" ", html)


@pytest.fixture
def upstream(sandbox_url, company):
    """Bookdesk's upstream client for the company, with any of its tokens."""
    def client(role: str = "admin", token: str | None = None) -> UpstreamClient:
        return UpstreamClient(sandbox_url, token or company.tokens[role], company.id, retries=0)
    return client


def caught(call) -> UpstreamError:
    """The upstream error a call raises (it must raise one)."""
    with pytest.raises(UpstreamError) as raised:
        call()
    return raised.value


# -- the table, row by row: each builds real bad input and returns the error it got ------------

def bad_date(upstream, api, db):
    return caught(lambda: taxes_api.monthly(upstream(), "taxes", {"from_date": "2024-13-45"}))


def resync_required(upstream, api, db):
    return caught(lambda: expenses_api.list_page(
        upstream(), {"updated_since": "2000-01-01T00:00:00Z"}))


def unknown_tax_source(upstream, api, db):
    return caught(lambda: taxes_api.monthly(upstream(), "taxes", {"source": "bogus"}))


def foreign_currency_without_rate(upstream, api, db):
    cat = read_catalogue(db, api.company.id)
    body = income_body(cat, "DEV-1", currency=cat.currencies["EUR"])
    return caught(lambda: incomes_api.create(upstream(), body))


def duplicate_invoice_number(upstream, api, db):
    cat = read_catalogue(db, api.company.id)
    incomes_api.create(upstream(), income_body(cat, "DUP-1"))
    return caught(lambda: incomes_api.create(upstream(), income_body(cat, "DUP-1")))


def partner_collision(upstream, api, db):
    partners_api.create(upstream(), {"name": "Első Kft.", "tax_number": "12345676-2-42",
                                     "is_customer": True})
    return caught(lambda: partners_api.create(upstream(), {
        "name": "Második Kft.", "tax_number": "12345676-2-42", "is_customer": True}))


def partner_name_collision(upstream, api, db):
    partners_api.create(upstream(), {"name": "Névtelen Bt.", "is_customer": True})
    return caught(lambda: partners_api.create(upstream(), {"name": "névtelen bt.",
                                                           "is_vendor": True}))


def restricted_partner_update(upstream, api, db):
    partner = partners_api.create(upstream(), {"name": "Szinkron Kft.", "is_customer": True})
    requests.patch(f"{api.base}/_sandbox/partners/{partner['id']}/",
                   json={"source": "szamlazz.hu"}, timeout=10).raise_for_status()
    return caught(lambda: partners_api.update(upstream(), partner["id"], {"city": "Vác"}))


def partner_without_role(upstream, api, db):
    return caught(lambda: partners_api.create(upstream(), {
        "name": "Senki Kft.", "is_customer": False, "is_vendor": False}))


def partner_blank_text(upstream, api, db):
    return caught(lambda: partners_api.create(upstream(), {"name": "Üres Kft.", "city": "",
                                                           "is_customer": True}))


def fake_pdf(upstream, api, db):
    return caught(lambda: expenses_api.create(upstream(), "szamla.pdf", b"not a pdf at all",
                                              "application/pdf"))


def empty_assignments(upstream, api, db):
    made = make_expense(api, expense_catalogue(api))
    return caught(lambda: expenses_api.update(upstream(), made["id"], {"assignments": []}))


def vat_period_half(upstream, api, db):
    api.patch(f"/2/company-info/update/{api.company.id}/", json={"enable_vat_period": True})
    made = make_income(api, type=1)
    return caught(lambda: incomes_api.update(upstream(), made["id"],
                                             {"vat_period_type": "monthly"}))


def vat_period_type_without_start(upstream, api, db):
    api.patch(f"/2/company-info/update/{api.company.id}/", json={"enable_vat_period": True})
    made = make_income(api, type=1)
    return caught(lambda: incomes_api.update(upstream(), made["id"], {
        "vat_period_type": "monthly", "vat_period_started_at": None}))


def accounting_period_reversed(upstream, api, db):
    made = make_income(api, type=1)
    return caught(lambda: incomes_api.update(upstream(), made["id"], {
        "accounting_period_start": "2025-06-01", "accounting_period_end": "2025-01-01"}))


def accounting_period_half(upstream, api, db):
    made = make_income(api, type=1)
    return caught(lambda: incomes_api.update(upstream(), made["id"], {
        "accounting_period_start": "2025-06-01"}))


def invalid_token(upstream, api, db):
    return caught(lambda: partners_api.list_page(upstream(token="no-such-token"), {}))


def viewer_write(upstream, api, db):
    return caught(lambda: partners_api.create(upstream("viewer"), {"name": "Néző Kft.",
                                                                   "is_customer": True}))


def two_factor_missing(upstream, api, db):
    return caught(lambda: partners_api.list_page(upstream("no_2fa"), {}))


VALIDATION_ROWS = (bad_date, resync_required, unknown_tax_source, foreign_currency_without_rate,
                   duplicate_invoice_number, partner_collision, partner_name_collision,
                   restricted_partner_update, partner_without_role, partner_blank_text,
                   fake_pdf, empty_assignments, vat_period_half, vat_period_type_without_start,
                   accounting_period_reversed, accounting_period_half)
REFUSAL_ROWS = (invalid_token, viewer_write, two_factor_missing)


# -- DRF's number texts (not in the table, sent for any field that takes a decimal) -----------

def _expense_rate(value):
    def row(upstream, api, db):
        made = make_expense(api, expense_catalogue(api))
        return caught(lambda: expenses_api.update(upstream(), made["id"], {"exchange_rate": value}))
    row.__name__ = f"expense_rate_{value}"
    return row


def income_amount_over_14_digits(upstream, api, db):
    cat = read_catalogue(db, api.company.id)
    body = income_body(cat, "DIG-1", net_amount="123456789012.345")
    return caught(lambda: incomes_api.create(upstream(), body))


NUMBER_ROWS = (_expense_rate("0"), _expense_rate("391.1234567"), _expense_rate("123456789"),
               income_amount_over_14_digits)


def hungarian_page(app, error) -> str:
    """What Bookdesk's error path makes of the error in Hungarian (the message functions and
    handlers the pages use, called here directly: no page's own form is involved)."""
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        if isinstance(error, ValidationError):
            response = error_response(400, " ".join(upstream_messages(error)))
        else:
            response = app.handle_user_exception(error)
        text = response.get_data(as_text=True) + " ".join(get_flashed_messages())
    return visible(text)


@pytest.mark.parametrize("row", VALIDATION_ROWS, ids=lambda row: row.__name__)
def test_every_400_of_the_error_table_reads_hungarian_on_the_message_path(
        row, app, upstream, api, sandbox_db_path):
    error = row(upstream, api, sandbox_db_path)
    assert isinstance(error, ValidationError) and error.status == 400
    page = hungarian_page(app, error)
    sent = [*error.non_field_errors, *(m for ms in error.field_errors.values() for m in ms)]
    assert sent, "the upstream named no problem"
    for text in sent:
        assert text not in page
    assert english_sentences(page) == [], (sent, page)


@pytest.mark.parametrize("row", NUMBER_ROWS, ids=lambda row: row.__name__)
def test_drf_s_number_texts_read_hungarian_in_bookdesk_s_own_words(row, app, upstream, api,
                                                                  sandbox_db_path):
    error = row(upstream, api, sandbox_db_path)
    assert isinstance(error, ValidationError) and error.status == 400
    sent = [m for ms in error.field_errors.values() for m in ms]
    page = hungarian_page(app, error)
    assert sent and not [text for text in sent if text in page], (sent, page)
    assert "A könyvelési szolgáltatás ezt nem fogadta el" not in page, page


@pytest.mark.parametrize("row", REFUSAL_ROWS, ids=lambda row: row.__name__)
def test_every_401_and_403_of_the_error_table_reads_hungarian_on_the_message_path(
        row, app, upstream, api, sandbox_db_path):
    error = row(upstream, api, sandbox_db_path)
    assert error.status in (401, 403)
    page = hungarian_page(app, error)
    assert english_sentences(page) == [], page


def test_the_english_heuristic_catches_an_untranslated_upstream_sentence():
    assert english_sentences("Hiba: A partner with this tax number already exists.")
    assert english_sentences("Ez a lista nem lehet üres. Alfa Kft.") == []


def test_a_drf_limit_reads_as_bookdesk_s_own_check_with_its_number(app):
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        at_least = upstream_text("Ensure this value is greater than or equal to 0.")
        places = upstream_text("Ensure that there are no more than 6 decimal places.")
    assert (at_least, places) == ("Legalább 0 adható meg.", "Legfeljebb 6 tizedesjegy adható meg.")


def test_an_unknown_upstream_text_gets_a_hungarian_lead_in_with_the_text_as_detail(app):
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        shown = upstream_text("Something new went wrong.")
    assert shown.startswith("A könyvelési szolgáltatás ezt nem fogadta el.")
    assert shown.endswith("Something new went wrong.")


def test_a_known_text_keeps_its_value_in_the_translation(app):
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        shown = upstream_text("Select a valid choice. bogus is not one of the available choices.")
    assert "bogus" in shown and "Válasszon" in shown


# -- through the real pages --------------------------------------------------------------------

def hungarian_client(client, company) -> str:
    """Sign in and switch the session to Hungarian; returns the company's base path."""
    base = signed_in(client, company)
    client.get("/lang/hu")
    return base


def test_partner_collision_on_the_partner_form_reads_hungarian(client, company, api,
                                                               sandbox_log):
    api.post("/2/partners/create/", json={"name": "Meglévő Kft.", "tax_number": "87654323-1-11",
                                          "is_customer": True}).raise_for_status()
    base = hungarian_client(client, company) + "partners/"
    html = client.get(base + "new").get_data(as_text=True)
    form_key = re.search(r'name="form_key"[^>]*value="([^"]+)"', html).group(1)
    sandbox_log.reset()
    response = client.post(base + "new", data={
        "csrf_token": csrf_token(html), "form_key": form_key, "name": "Új Kft.",
        "tax_number": "87654323-1-11", "is_vendor": "y"})
    refused_by_upstream(sandbox_log, company, "POST", "/2/partners/create")
    page = visible(response.get_data(as_text=True))
    assert response.status_code == 400
    assert "Ezzel az adószámmal már létezik partner." in page
    assert "A partner with this tax number already exists." not in page
    assert english_sentences(page) == []


def test_a_refused_tax_source_filter_reads_hungarian(client, company, monkeypatch,
                                                     sandbox_log):
    from app.taxes import present

    monkeypatch.setitem(present.INTEGRATIONS, "retired-payroll", "Retired payroll")
    base = hungarian_client(client, company)
    sandbox_log.reset()
    response = client.get(base + "taxes/?source=retired-payroll")
    refused_by_upstream(sandbox_log, company, "GET", "/2/monthly-taxes")
    page = visible(response.get_data(as_text=True))
    assert response.status_code == 400
    assert "nincs a választható értékek között" in page
    assert "is not one of the available choices" not in page


def refused_by_upstream(sandbox_log, company, method: str, path: str) -> None:
    """The page's write reached the sandbox and was refused there with a 400 (so what the page
    shows is the upstream's message, not a check of Bookdesk's own)."""
    sent = sandbox_log.entries(company_id=company.id, method=method, path=path)
    assert [entry["status"] for entry in sent] == [400], sent


def test_a_partner_name_collision_on_the_partner_form_reads_hungarian(client, company, api,
                                                                      sandbox_log):
    api.post("/2/partners/create/", json={"name": "Névtelen Bt.",
                                          "is_customer": True}).raise_for_status()
    base = hungarian_client(client, company) + "partners/"
    form = page_form(client, base + "new").set("name", "névtelen bt.").set("is_vendor", "y")
    sandbox_log.reset()
    response = client.post(base + "new", data=form.data())
    refused_by_upstream(sandbox_log, company, "POST", "/2/partners/create")
    page = visible(response.get_data(as_text=True))
    assert response.status_code == 400
    assert "Ilyen nevű, adószám nélküli partner már létezik." in page
    assert english_sentences(page) == [], page


def test_a_restricted_partner_edit_reads_hungarian(client, company, api, sandbox_log):
    partner = api.post("/2/partners/create/", json={"name": "Szinkron Kft.",
                                                    "is_customer": True}).json()
    requests.patch(f"{api.base}/_sandbox/partners/{partner['id']}/",
                   json={"source": "szamlazz.hu"}, timeout=10).raise_for_status()
    path = hungarian_client(client, company) + f"partners/{partner['id']}/"
    form = page_form(client, path).set("city", "Vác")
    sandbox_log.reset()
    response = client.post(path, data=form.data())
    refused_by_upstream(sandbox_log, company, "PATCH", "/2/partners/")
    page = visible(response.get_data(as_text=True))
    assert response.status_code == 400
    assert ("Ennél a partnernél csak az alapértelmezett bankszámla és a vevő/szállító szerep "
            "módosítható, ezért semmi sem lett mentve.") in page
    assert english_sentences(page) == [], page


def test_a_refused_resync_on_the_expense_list_reads_hungarian(client, company, sandbox_log):
    base = hungarian_client(client, company)
    sandbox_log.reset()
    response = client.get(base + "expenses/?since=2000-01-01T00:00")
    refused_by_upstream(sandbox_log, company, "GET", "/2/expenses")
    page = visible(response.get_data(as_text=True))
    assert response.status_code == 400
    assert "A „Módosítva ekkor óta” időpont túl régi." in page
    assert english_sentences(page) == [], page
