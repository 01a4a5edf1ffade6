"""The editor page: order, switch, duplicate, remove; stale tabs; import of files."""
from __future__ import annotations

import json
import re
from io import BytesIO

from tests.app.conftest import csrf_token
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored

HTMX = {"HX-Request": "true", "HX-Target": "policy-editor"}

DRAFTBAR = 'class="draftbar'


def _names(html: str, section: str = "policies") -> list[str]:
    card = rf'id="rule-{section}-\d+"[\s\S]*?'
    return re.findall(card + r'class="visually-hidden">[^<]*</span>\s*([^<]+?)\s*</h3>', html)


def test_rules_move_switch_duplicate_and_go_in_the_draft_only(client, company, api):
    set_stored(api, config(policy("A"), policy("B"), policy("C")))
    editor = Editor(client, company)
    editor.act("move-up", "policies", 2)
    editor.act("duplicate", "policies", 1)
    editor.act("toggle", "policies", 1)
    editor.act("delete", "policies", 3)
    html = editor.html()
    assert _names(html) == ["A", "C", "C (copy)"]
    assert [p["name"] for p in stored(api)["policies"]] == ["A", "B", "C"], "not saved yet"
    editor.save()
    saved = stored(api)["policies"]
    assert [(p["name"], p["enabled"]) for p in saved] == [("A", True), ("C", False),
                                                          ("C (copy)", True)]


def test_htmx_list_action_answers_the_editor_with_focus_on_the_moved_rule(client, company, api):
    set_stored(api, config(policy("A"), policy("B")))
    editor = Editor(client, company)
    page = editor.html()
    rev = re.search(r'name="rev" value="(\d+)"', page).group(1)
    response = client.post(editor.base + "/act", headers=HTMX, data={
        "op": "move-down", "section": "policies", "index": "0", "rev": rev,
        "csrf_token": csrf_token(page)})
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith('<div id="policy-editor"')
    assert _names(body) == ["B", "A"]
    assert re.search(r'id="move-down-policies-1"[^>]*data-focus', body)


def test_a_form_from_an_older_draft_is_refused(client, company, api):
    set_stored(api, config(policy("A"), policy("B")))
    editor = Editor(client, company)
    editor.act("toggle", "policies", 0)
    response = editor.post("/act", {"op": "delete", "section": "policies", "index": "1",
                                    "rev": "0"})
    assert response.status_code == 303
    assert "changed in another window" in editor.html()
    assert _names(editor.html()) == ["A", "B"]


def test_switch_for_multiple_matches_is_set_in_the_draft(client, company, api):
    set_stored(api, config(policy("A")))
    editor = Editor(client, company)
    editor.post("/act", {"op": "switch", "value": "on"})
    assert "When more than one rule matches an income, none will be applied" in \
        editor.html("/review")
    editor.save()
    assert stored(api)["skip_for_multiple_match"] is True


def test_discard_drops_the_draft(client, company, api):
    set_stored(api, config(policy("A")))
    editor = Editor(client, company)
    editor.act("toggle", "policies", 0)
    editor.post("/discard", {})
    assert DRAFTBAR not in editor.html()


def _upload(editor, content: bytes, name="policies.json"):
    return editor.post("/import", {"file": (BytesIO(content), name)},
                       content_type="multipart/form-data")


def test_import_shows_the_file_as_changes_before_it_can_be_saved(client, company, api):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    response = _upload(editor, json.dumps(config(policy("Új"))).encode(), "uj.json")
    assert response.status_code == 303 and response.location.endswith("/review")
    review = editor.html("/review")
    assert "Your draft is the file uj.json." in review
    assert "Rule Régi renamed to Új." in review
    assert stored(api)["policies"][0]["name"] == "Régi"
    editor.save()
    assert stored(api)["policies"][0]["name"] == "Új"
    assert "Imported from the file uj.json" in editor.html("/history")


def test_unreadable_and_misshapen_files_are_refused(client, company, api, sandbox_log):
    editor = Editor(client, company)
    bad_json = _upload(editor, b'{"v": 2,')
    assert bad_json.status_code == 400 and "not valid JSON" in bad_json.get_data(as_text=True)
    null = _upload(editor, b"null")
    assert "The file holds null" in null.get_data(as_text=True)
    misshapen = _upload(editor, json.dumps({"v": 2, "policies": {"a": 1}}).encode())
    assert misshapen.status_code == 400
    assert "This must be a list." in misshapen.get_data(as_text=True)
    other_version = _upload(editor, json.dumps({"v": 3, "policies": []}).encode())
    assert "only version 2 is supported" in other_version.get_data(as_text=True)
    assert DRAFTBAR not in editor.html()
    assert not sandbox_log.entries(company.id, method="PATCH")
