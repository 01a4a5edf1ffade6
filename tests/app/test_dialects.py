"""Bookdesk against either dialect: the spec's company header or live's `Quick-Company-Id`.

Each main journey runs twice against the sandbox, once per header name (BOOKDESK_COMPANY_HEADER),
and every call Bookdesk made for the company must carry that header and not the other one.
"""
from __future__ import annotations

import pytest

from app import ConfigError, create_app
from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import make_expense
from tests.app.incomes_helpers import income, make_income, page_form
from tests.app.test_expenses_bulk import bulk_key
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored
from tests.app.test_review_support import from_bookdesk, open_screen, settle, step, waiting

HEADERS = ("Service-Company-Id", "Quick-Company-Id")


@pytest.fixture(params=HEADERS)
def app_config(request, app_config) -> dict:
    """The sandbox app's settings with the company header under test."""
    return {**app_config, "COMPANY_HEADER": request.param}


@pytest.fixture
def header(app_config) -> str:
    """The company header name this run sends."""
    return app_config["COMPANY_HEADER"]


@pytest.fixture
def base(client, company, sandbox_log) -> str:
    """Signed in (naming the company, so sign-in sends the header too); the company's root."""
    return signed_in(client, company, company_id=company.id)


def sent_only(sandbox_log, company_id: int, header: str) -> None:
    """Every call Bookdesk made for the company named it with `header`, never the other name."""
    settle()
    calls = [e for e in sandbox_log.entries(company_id=company_id) if from_bookdesk(e)]
    assert calls, "Bookdesk made no call for the company"
    other = next(name for name in HEADERS if name != header)
    for call in calls:
        assert call["headers"].get(header) == str(company_id), call
        assert other not in call["headers"], call


def test_sign_in_names_the_company_with_the_configured_header(base, company, header,
                                                              sandbox_log):
    assert base == f"/c/{company.id}/"
    sent_only(sandbox_log, company.id, header)


def test_income_list(client, base, company, api, header, sandbox_log):
    make_income(api, invoice_number="DIA-LIST-1")
    html = client.get(f"{base}incomes/").get_data(as_text=True)
    assert "DIA-LIST-1" in html
    sent_only(sandbox_log, company.id, header)


def test_income_detail_and_edit(client, base, company, api, header, sandbox_log):
    created = make_income(api, type=2, invoice_number="DIA-EDIT-1", note="régi")
    assert "DIA-EDIT-1" in client.get(f"{base}incomes/{created['id']}").get_data(as_text=True)
    path = f"{base}incomes/{created['id']}/edit"
    response = client.post(path, data=page_form(client, path).set("note", "új").data())
    assert response.status_code == 303
    assert income(api, created["id"])["note"] == "új"
    sent_only(sandbox_log, company.id, header)


def test_review_done(client, base, company, api, header, sandbox_log):
    created = waiting(api, invoice_number="DIA-REV-1")
    screen = open_screen(client, f"{base}review/{created['id']}")
    assert step(client, screen, "done").status_code == 200
    assert income(api, created["id"])["review_done"] is True
    sent_only(sandbox_log, company.id, header)


def test_expense_list(client, base, company, api, header, sandbox_log):
    make_expense(api, invoice_number="DIA-EXP-1")
    assert "DIA-EXP-1" in client.get(f"{base}expenses/").get_data(as_text=True)
    sent_only(sandbox_log, company.id, header)


def test_expense_bulk_approve(client, base, company, api, header, sandbox_log):
    created = make_expense(api, invoice_number="DIA-BULK-1")
    html = client.get(f"{base}expenses/").get_data(as_text=True)
    response = client.post(f"{base}expenses/bulk", data={
        "csrf_token": csrf_token(html), "form_key": bulk_key(html), "action": "approve",
        "ids": [created["id"]]})
    assert response.status_code == 303
    assert api.get(f"/2/expenses/{created['id']}/").json()["approved"] is True
    sent_only(sandbox_log, company.id, header)


def test_policy_save(client, company, api, header, sandbox_log):
    set_stored(api, config(policy("Szoftver", revenue_type="Szoftverlicenc")))
    editor = Editor(client, company)
    sandbox_log.reset()  # the editor signs in without naming the company: no header then
    assert editor.rule("policies", 0, {"name": "Szoftver (új)"}).status_code == 303
    assert editor.save().status_code == 303
    assert [p["name"] for p in stored(api)["policies"]] == ["Szoftver (új)"]
    sent_only(sandbox_log, company.id, header)


def test_an_unknown_company_header_name_is_refused_at_start(app_config):
    with pytest.raises(ConfigError, match="COMPANY_HEADER"):
        create_app({**app_config, "COMPANY_HEADER": "Company-Id"})


def test_oauth_urls_default_to_the_sandbox_and_follow_settings(app_config):
    sandbox = create_app(app_config).config
    assert sandbox["OAUTH_AUTHORIZE_URL"] == f"{app_config['UPSTREAM_URL']}/oauth/authorize/"
    assert sandbox["OAUTH_TOKEN_URL"] == f"{app_config['UPSTREAM_URL']}/oauth/token/"
    live = create_app({**app_config, "OAUTH_AUTHORIZE_URL": "https://auth.example/authorize",
                       "OAUTH_TOKEN_URL": "https://auth.example/token"}).config
    assert live["OAUTH_AUTHORIZE_URL"] == "https://auth.example/authorize"
    assert live["OAUTH_TOKEN_URL"] == "https://auth.example/token"
