"""History and restore: who saved what, and bringing an earlier version back."""
from __future__ import annotations

import html
import re

from app.store.history import fingerprint, list_versions
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored


def _save_name(editor, name):
    assert editor.rule("policies", 0, {"name": name}).status_code == 303
    assert editor.save().status_code == 303


def test_restore_brings_back_an_earlier_version(client, company, api):
    set_stored(api, config(policy("Első")))
    editor = Editor(client, company)
    _save_name(editor, "Második")
    _save_name(editor, "Harmadik")
    assert stored(api)["policies"][0]["name"] == "Harmadik"
    history = editor.html("/history")
    first_id = re.findall(r"/version\?id=(\d+)", history)[-1]
    page = editor.html(f"/version?id={first_id}")
    assert "Rule Harmadik renamed to Első." in page  # same rule, same place, another name
    response = editor.post("/restore", {"id": first_id}, page=f"/version?id={first_id}")
    assert response.status_code == 303 and response.location.endswith("/policies/review")
    assert f"version {first_id} from the history" in editor.html("/review")
    assert editor.save().status_code == 303
    assert stored(api) == config(policy("Első"))
    assert f"Version {first_id} restored" in editor.html("/history")


def test_history_records_name_and_fingerprint_never_the_token(client, company, api, app):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company, name="Kovács Anna")
    _save_name(editor, "Új")
    with app.app_context():
        found, saved = list_versions(company.id)[1], list_versions(company.id)[0]
    assert (found.note, found.actor_fp) == ("found", "")
    assert found.config["policies"][0]["name"] == "Régi"
    assert saved.actor == "Kovács Anna"
    assert saved.actor_fp == fingerprint(company.tokens["admin"], app.secret_key)
    history = editor.html("/history")
    assert f"Kovács Anna · {saved.actor_fp}" in history
    assert "Rule Régi renamed to Új." in history
    with open(app.instance_path + "/bookdesk.db", "rb") as database:
        assert company.tokens["admin"].encode() not in database.read()


def test_a_versions_json_reads_as_its_file_in_its_own_key_order(client, company, api):
    set_stored(api, config(policy("Próba Partner <b>", value="Számla")))
    editor = Editor(client, company)
    _save_name(editor, "Második")
    version_id = re.findall(r"/version\?id=(\d+)", editor.html("/history"))[-1]
    page = editor.html(f"/version?id={version_id}")
    raw = page.split('class="json-view">')[1].split("</pre>")[0]
    text = html.unescape(raw)
    assert "&lt;b&gt;" in raw and '"name": "Próba Partner <b>"' in text and "\\u00" not in text
    assert text.index('"v"') < text.index('"skip_for_multiple_match"') < text.index('"policies"')


def test_version_of_another_company_is_not_found(client, company, make_company, api):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    _save_name(editor, "Új")
    other = make_company()
    other_editor = Editor(client, other)
    version_id = re.findall(r"/version\?id=(\d+)", editor.html("/history"))[0]
    assert other_editor.get(f"/version?id={version_id}").status_code == 404
    assert other_editor.get("/version?id=x").status_code == 400
    assert other_editor.get(f"/version?id={'9' * 40}").status_code == 400


def test_export_downloads_the_saved_configuration_and_versions(client, company, api):
    original = config(policy("Régi"), x_top=1)
    set_stored(api, original)
    editor = Editor(client, company)
    response = editor.get("/export")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    # Named in the page's language, with an ASCII fallback.
    hungarian = client.get(f"/c/{company.id}/policies/export", headers={"Accept-Language": "hu"})
    assert "filename*=UTF-8''bev%C3%A9teli-szab%C3%A1lyok-" in hungarian.headers[
        "Content-Disposition"] and 'filename="beveteli-szabalyok-' in hungarian.headers[
        "Content-Disposition"]
    assert response.get_json() == original
    _save_name(editor, "Új")
    version_id = re.findall(r"/version\?id=(\d+)", editor.html("/history"))[-1]
    assert editor.get(f"/export?what=version&id={version_id}").get_json() == original
