"""What the signed-in token may do: learned at sign-in and from any 403 on a write, remembered
per company and token for the session (app/auth/flow.py); a refused write comes back as the form
with the input and the reason; history restores get the full page."""
from __future__ import annotations

import re

from app.auth import flow
from app.upstream import PermissionDenied, ValidationError, WriteRefused
from app.upstream.errors import error_for
from tests.app.conftest import csrf_token, sign_in, signed_in
from tests.app.incomes_helpers import make_income, page_form

VIEW_ONLY = "lets you view records but not change them"
ADMIN_ONLY = "Only an administrator of this company can change this"
REFUSED = "the accounting service refused a change for your token"


def _memory(client) -> dict:
    with client.session_transaction() as session:
        return dict(session.get(flow.REFUSED_KEY) or {})


def _forget(client, company) -> None:
    """The editor's "my role has changed" button: forget every refusal of this token."""
    page = client.get(f"/c/{company.id}/policies/").get_data(as_text=True)
    client.post(f"/c/{company.id}/policies/unlock", data={"csrf_token": csrf_token(page)})


def test_a_viewer_is_known_read_only_from_sign_in(client, company):
    signed_in(client, company, role="viewer")
    [flags] = _memory(client).values()
    assert flags == {"write": flow.KNOWN_ROLE}
    html = client.get(f"/c/{company.id}/incomes/").get_data(as_text=True)
    assert f'id="{flow.READ_ONLY_ID}"' in html and VIEW_ONLY in html
    assert "New accounting document" not in html


def test_a_viewer_who_changed_nothing_is_told_the_role_and_no_refusal_until_one_is_made(
        client, company):
    signed_in(client, company, role="viewer")
    incomes = client.get(f"/c/{company.id}/incomes/").get_data(as_text=True)
    policies = client.get(f"/c/{company.id}/policies/").get_data(as_text=True)
    assert VIEW_ONLY in incomes and ADMIN_ONLY in policies
    assert REFUSED not in incomes and REFUSED not in policies
    form = page_form(client, f"/c/{company.id}/partners/new")
    client.post(f"/c/{company.id}/partners/new", data=form.set(
        "name", "Új Partner Kft.").set("is_customer", "y").data())
    incomes = client.get(f"/c/{company.id}/incomes/").get_data(as_text=True)
    assert VIEW_ONLY in incomes and REFUSED in incomes


def test_the_sign_in_probe_stores_nothing_and_leaves_writers_writable(
        client, company, api, sandbox_log):
    before = api.get("/1/partners/").json()
    sandbox_log.reset()
    signed_in(client, company, role="bookkeeper")
    probes = sandbox_log.entries(company.id, method="POST")
    assert [entry["status"] for entry in probes] == [400]
    assert api.get("/1/partners/").json() == before
    assert _memory(client) == {}
    html = client.get(f"/c/{company.id}/partners/").get_data(as_text=True)
    assert "New partner" in html and flow.READ_ONLY_ID not in html


def test_a_403_on_a_settings_change_is_remembered_as_admin_only(client, company):
    sign_in(client, company, role="bookkeeper")
    page = client.get(f"/c/{company.id}/settings/").get_data(as_text=True)
    client.post(f"/c/{company.id}/settings/", data={
        "csrf_token": csrf_token(page), "enable_vat_period": "y"})
    [flags] = _memory(client).values()
    assert set(flags) == {"admin"}
    assert "Create partner" in client.get(f"/c/{company.id}/partners/new").get_data(as_text=True)
    policies = client.get(f"/c/{company.id}/policies/").get_data(as_text=True)
    assert ADMIN_ONLY in policies


def test_the_memory_belongs_to_the_company_and_token(client, company):
    sign_in(client, company, role="viewer")
    sign_in(client, company, role="admin")
    keys = list(_memory(client))
    assert keys and all(key.startswith(f"{company.id}:") for key in keys)
    html = client.get(f"/c/{company.id}/incomes/").get_data(as_text=True)
    assert VIEW_ONLY not in html and "New accounting document" in html


def test_any_refused_write_of_a_request_is_learned(client, company):
    sign_in(client, company, role="viewer")
    _forget(client, company)
    assert not any(_memory(client).values())
    page = client.get(f"/c/{company.id}/partners/new").get_data(as_text=True)
    assert "Create partner" in page and VIEW_ONLY not in page
    form = page_form(client, f"/c/{company.id}/partners/new")
    response = client.post(f"/c/{company.id}/partners/new", data=form.set(
        "name", "Új Partner Kft.").set("is_customer", "y").data())
    html = response.get_data(as_text=True)
    assert "Új Partner Kft." in html and "refused this action for your token" in html
    [flags] = _memory(client).values()
    assert set(flags) == {"write"}
    assert VIEW_ONLY in html, "the page that answers the refusal already knows it"
    settings = client.get(f"/c/{company.id}/settings/").get_data(as_text=True)
    assert 'id="settings-read-only"' in settings, "no write means no settings either"


def test_a_403_on_a_write_is_a_form_error_and_on_a_read_a_permission_error():
    refused = error_for(403, {"detail": "You do not have permission"}, method="PATCH", path="/x")
    assert isinstance(refused, WriteRefused)
    assert isinstance(refused, ValidationError) and isinstance(refused, PermissionDenied)
    assert refused.non_field_errors and "refused this action" in refused.non_field_errors[0]
    read = error_for(403, {"detail": "You do not have permission"}, method="GET", path="/x")
    assert isinstance(read, PermissionDenied) and not isinstance(read, ValidationError)


def test_a_refused_income_edit_comes_back_with_the_input_and_the_reason(client, company, api):
    created = make_income(api, type=2, note="régi")
    sign_in(client, company, role="viewer")
    _forget(client, company)  # the role changed after sign-in: Bookdesk does not know yet
    path = f"/c/{company.id}/incomes/{created['id']}/edit"
    form = page_form(client, path)
    response = client.post(path, data=form.set("note", "amit begépeltem").data())
    html = response.get_data(as_text=True)
    assert response.status_code == 403
    start = html.index('<form class="record-form"')
    form_html = html[start:html.index("</form>", start)]
    assert re.search(r'name="note"[^>]*>\s*amit begépeltem</textarea>'
                     r'|name="note"[^>]*value="amit begépeltem"', form_html), form_html
    assert "refused this action for your token" in html
    assert VIEW_ONLY in client.get(path).get_data(as_text=True), "remembered afterwards"


def test_a_history_restore_gets_the_full_page_and_htmx_lists_vary(client, company):
    sign_in(client, company)
    path = f"/c/{company.id}/partners/?q=a"
    fragment = client.get(path, headers={"HX-Request": "true", "HX-Target": "partner-list"})
    assert "HX-Request" in fragment.headers.get("Vary", "")
    assert "<html" not in fragment.get_data(as_text=True)
    restore = client.get(path, headers={"HX-Request": "true",
                                        "HX-History-Restore-Request": "true"})
    html = restore.get_data(as_text=True)
    assert "<html" in html and 'class="mainnav"' in html and "css/app" in html
    page = client.get(path).get_data(as_text=True)
    assert '"historyRestoreAsHxRequest": false' in page


def test_every_refused_write_returns_the_form_with_the_input_and_the_reason(
        client, company, sandbox_url):
    from tests.app.test_taxes_create import _post as post_taxes
    from tests.e2e.screens_support import seed

    seeded, c = seed(sandbox_url, company), f"/c/{company.id}"
    sign_in(client, company, role="viewer")
    cases = [
        (f"{c}/review/{seeded.review}", f"{c}/review/{seeded.review}/done",
         {"action": "save_done", "note": "TYPED-1"}, "TYPED-1"),
        (f"{c}/tags/", f"{c}/tags/new", {"name": "TYPED-2"}, "TYPED-2"),
        (f"{c}/expenses/{seeded.expense}/edit", f"{c}/expenses/{seeded.expense}/edit",
         {"note": "TYPED-3"}, "TYPED-3"),
        (f"{c}/partners/{seeded.partner}/", f"{c}/partners/{seeded.partner}/",
         {"name": "TYPED-4 Kft."}, "TYPED-4 Kft."),
    ]
    for page, action, values, typed in cases:
        _forget(client, company)
        form = page_form(client, page)
        for name, value in values.items():
            form.set(name, value)
        response = client.post(action, data=form.data())
        html = response.get_data(as_text=True)
        assert typed in html and "refused this action for your token" in html, action
        assert response.status_code == 403, action
    _forget(client, company)
    taxes = post_taxes(client, f"{c}/taxes/", {"month": "2024-03", "amount": "150 000",
                                                "code": "103", "description": "TYPED-5"})
    assert "TYPED-5" in taxes.get_data(as_text=True)
    assert "refused this action for your token" in taxes.get_data(as_text=True)


def test_a_refused_review_done_stays_on_the_income_with_the_reason(client, company, sandbox_url):
    from tests.e2e.screens_support import seed

    seeded, c = seed(sandbox_url, company), f"/c/{company.id}"
    sign_in(client, company, role="viewer")
    for headers in ({}, {"HX-Request": "true", "HX-Target": "review-item"}):
        _forget(client, company)
        form = page_form(client, f"{c}/review/{seeded.review}")
        response = client.post(f"{c}/review/{seeded.review}/done",
                               data=form.set("action", "done").data(), headers=headers)
        html = response.get_data(as_text=True)
        assert response.status_code == 403 and "HX-Retarget" not in response.headers
        assert 'id="review-item"' in html and "refused this action for your token" in html


def test_a_refusal_is_said_once_in_the_page_language(client, company, api):
    """Bookdesk's own refusal text is not wrapped as an unknown upstream message."""
    created = make_income(api, type=2, note="régi")
    sign_in(client, company, role="viewer")
    _forget(client, company)
    client.get("/lang/hu")
    path = f"/c/{company.id}/incomes/{created['id']}/edit"
    form = page_form(client, path)
    html = client.post(path, data=form.set("note", "amit begépeltem").data()).get_data(
        as_text=True)
    assert "elutasította az Ön tokenjével" in html and "amit begépeltem" in html
    assert "A könyvelési szolgáltatás ezt nem fogadta el" not in html
