"""Only an administrator's token writes: the others end up read-only, told why."""
from __future__ import annotations

from tests.app.conftest import csrf_token
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored

# The reason is Bookdesk's own, in the page's language (app/auth/flow.py), not the API's text.
REFUSAL = "Only an administrator of this company can change this"


def test_bookkeeper_save_is_refused_and_the_editor_turns_read_only_with_the_reason(
        client, company, api, sandbox_log):
    set_stored(api, config(policy("Szoftver")))
    sandbox_log.reset()
    editor = Editor(client, company, role="bookkeeper")
    assert editor.rule("policies", 0, {"name": "Könyvelő javaslata"}).status_code == 303
    response = editor.save()
    assert response.status_code == 303
    page = editor.html()
    assert "Read-only: your token may not change the income policies." in page
    assert REFUSAL in page
    assert "Könyvelő javaslata" in page, "the draft is kept"
    assert 'name="op" value="toggle"' not in page
    assert stored(api)["policies"][0]["name"] == "Szoftver"
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 1


def test_read_only_is_remembered_and_writes_are_refused_without_calling_upstream(
        client, company, api, sandbox_log):
    set_stored(api, config(policy("Szoftver")))
    editor = Editor(client, company, role="bookkeeper")
    assert editor.rule("policies", 0, {"name": "Könyvelő javaslata"}).status_code == 303
    assert editor.save().status_code == 303  # upstream refuses: the editor turns read-only
    assert "Könyvelő javaslata" in editor.html(), "the refused draft is kept"
    sandbox_log.reset()
    assert editor.act("delete", "policies", 0).status_code == 303
    assert editor.rule("policies", 0, {"name": "X"}).status_code == 303
    assert editor.save().status_code == 303
    assert not sandbox_log.entries(company.id, method="PATCH")
    page = editor.html()
    assert "Read-only" in page
    assert "Könyvelő javaslata" in page, "the draft is still shown, unchanged"
    assert stored(api)["policies"][0]["name"] == "Szoftver"
    assert "Incomes checked" in editor.html("/preview"), "previews stay available"


def test_a_viewer_is_read_only_from_sign_in(client, company, api, sandbox_log):
    set_stored(api, config(policy("Szoftver")))
    editor = Editor(client, company, role="viewer")  # sign-in learns the viewer may not write
    sandbox_log.reset()
    assert "Read-only" in editor.html("/rule?section=policies&index=0")
    assert sandbox_log.entries(company.id, method="GET"), "the page read the policies"
    assert not sandbox_log.entries(company.id, method="PATCH")


def test_try_again_clears_the_read_only_mode(client, company, api):
    set_stored(api, config(policy("Szoftver")))
    editor = Editor(client, company, role="bookkeeper")
    editor.act("toggle", "policies", 0)
    editor.save()
    assert editor.post("/unlock", {}).status_code == 303
    assert "Read-only" not in editor.html()


def test_admin_of_the_same_company_is_not_affected_by_another_sessions_refusal(
        app, company, api):
    set_stored(api, config(policy("Szoftver")))
    bookkeeper = Editor(app.test_client(), company, role="bookkeeper")
    bookkeeper.act("toggle", "policies", 0)
    bookkeeper.save()
    admin = Editor(app.test_client(), company)
    admin.act("toggle", "policies", 0)
    assert admin.save().status_code == 303
    assert stored(api)["policies"][0]["enabled"] is False


def test_a_refusal_on_the_settings_page_opens_the_editor_read_only(client, company, api):
    editor = Editor(client, company, role="bookkeeper")
    page = client.get(f"/c/{company.id}/settings/").get_data(as_text=True)
    response = client.post(f"/c/{company.id}/settings/", data={
        "csrf_token": csrf_token(page), "enable_vat_period": "y"})
    assert response.status_code == 403
    html = editor.html()
    assert "Read-only" in html
    assert REFUSAL in html
