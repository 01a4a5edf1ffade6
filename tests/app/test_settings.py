"""Company settings: company data, the income-form switches for admins, read-only after the
API's 403 for anyone else (spec 2.1, 4.1)."""
from __future__ import annotations

import re

from tests.app.conftest import csrf_token, signed_in


def save(client, page: str, **switches):
    html = client.get(page).get_data(as_text=True)
    data = {"csrf_token": csrf_token(html)}
    data.update({key: "y" for key, on in switches.items() if on})
    return client.post(page, data=data)


def patches(sandbox_log, company) -> list[dict]:
    return [entry["body"] for entry in sandbox_log.entries(
        company_id=company.id, method="PATCH", path="/2/company-info/update/")]


def test_page_shows_company_data_and_what_each_switch_changes(client, company):
    html = client.get(signed_in(client, company, "settings/")).get_data(as_text=True)
    assert company.name in html and "12345678-2-41" in html and "HUF" in html
    assert "VAT period start" in html and "Accounting ID" in html
    assert 'name="enable_vat_period"' in html and 'name="enable_accounting_id"' in html


def test_admin_switch_sends_only_the_changed_setting(client, company, api, sandbox_log):
    page = signed_in(client, company, "settings/")
    sandbox_log.reset()
    response = save(client, page, enable_vat_period=True)
    assert response.status_code == 303
    assert patches(sandbox_log, company) == [{"enable_vat_period": True}]
    info = api.get("/2/company-info/").json()
    assert info["enable_vat_period"] is True and info["enable_accounting_id"] is False
    assert re.search(r'<input[^>]* checked [^>]*name="enable_vat_period"',
                     client.get(page).get_data(as_text=True))


def test_switching_both_back_off_and_on(client, company, api, sandbox_log):
    page = signed_in(client, company, "settings/")
    save(client, page, enable_accounting_id=True)
    sandbox_log.reset()
    assert save(client, page, enable_vat_period=True).status_code == 303
    assert patches(sandbox_log, company) == [{"enable_vat_period": True,
                                              "enable_accounting_id": False}]


def test_non_admin_sees_read_only_with_the_reason_after_the_api_refuses(client, company, api,
                                                                       sandbox_log):
    page = signed_in(client, company, "settings/", "bookkeeper")
    sandbox_log.reset()
    refused = save(client, page, enable_vat_period=True)
    assert refused.status_code == 403
    assert 'id="settings-read-only"' in refused.get_data(as_text=True)
    assert "only administrators of the company may change" in refused.get_data(as_text=True)
    kept = re.search(r'<input[^>]*name="enable_vat_period"[^>]*>', refused.get_data(as_text=True))
    assert kept and "checked" in kept.group(0), "the refused choice stays on the page"
    assert len(patches(sandbox_log, company)) == 1
    later = client.get(page).get_data(as_text=True)
    assert 'id="settings-read-only"' in later and 'name="enable_vat_period"' not in later
    assert save(client, page, enable_vat_period=True).status_code == 403
    assert len(patches(sandbox_log, company)) == 1
    assert api.get("/2/company-info/").json()["enable_vat_period"] is False


def test_read_only_belongs_to_the_refused_token_not_the_company(client, company):
    page = signed_in(client, company, "settings/", "bookkeeper")
    save(client, page, enable_vat_period=True)
    signed_in(client, company, "settings/", "admin")
    html = client.get(page).get_data(as_text=True)
    assert 'id="settings-read-only"' not in html and 'name="enable_vat_period"' in html


def test_a_saved_switch_reaches_the_cached_settings_income_forms_read(app, client, company):
    from app.forms import company_settings
    from app.upstream import make_client

    page = signed_in(client, company, "settings/")
    with app.test_request_context():
        api = make_client(company.id, company.tokens["admin"])
        assert company_settings(api)["enable_vat_period"] is False  # now cached
        save(client, page, enable_vat_period=True)
        assert company_settings(api)["enable_vat_period"] is True
