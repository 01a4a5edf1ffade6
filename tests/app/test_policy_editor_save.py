"""Saving through the editor: unknown keys survive, invalid drafts never leave, null deletes."""
from __future__ import annotations

import json
from io import BytesIO

from app.policies.editor.history import diff_configs
from app.store.history import list_versions
from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored

UPDATE = "/2/company-info/update/"

DRAFTBAR = 'class="draftbar'


def _rich_config() -> dict:
    """A configuration with keys the editor does not know at every level."""
    split = {"split": [{"percent": 70, "revenue_type": "Termék", "x_part": "p"},
                       {"percent": 30, "revenue_type": "Szolgáltatás"}], "x_set": {"k": 1}}
    first = policy("Szoftver", value="Soft", revenue_type="Szoftverlicenc", tags=["Licenc"])
    first["x_rule"] = "megjegyzés"
    first["conditions"][0]["x_cond"] = [1, 2]
    big = policy("Nagy", field="gross_amount", op="gte", value=2000000, **split)
    ignore = {"name": "Teszt", "conditions": [
        {"field": "invoice_number", "op": "starts_with", "value": "TESZT"}], "x_ignore": True}
    return config(first, big, ignore=[ignore], skip=True, x_top={"nested": ["kept"]})


def test_round_trip_through_the_editor_keeps_every_unknown_key(client, company, api):
    original = _rich_config()
    set_stored(api, original)
    editor = Editor(client, company)
    response = editor.rule("policies", 0, {"name": "Szoftver (új)"})
    assert response.status_code == 303
    assert editor.act("move-down", "policies", 0).status_code == 303
    assert editor.save().status_code == 303
    saved = stored(api)
    assert saved["x_top"] == {"nested": ["kept"]}
    assert [p["name"] for p in saved["policies"]] == ["Nagy", "Szoftver (új)"]
    renamed, big = saved["policies"][1], saved["policies"][0]
    assert renamed["x_rule"] == "megjegyzés"
    assert renamed["conditions"][0]["x_cond"] == [1, 2]
    assert renamed["set"] == {"revenue_type": "Szoftverlicenc", "tags": ["Licenc"]}
    assert big == original["policies"][1]
    assert saved["ignore_policies"] == original["ignore_policies"]
    assert saved["skip_for_multiple_match"] is True


def test_editing_a_rule_changes_only_what_was_edited(client, company, api):
    original = _rich_config()
    set_stored(api, original)
    editor = Editor(client, company)
    assert editor.rule("policies", 1, {}).status_code == 303
    assert DRAFTBAR not in editor.html(), "an untouched rule leaves no draft"
    assert editor.rule("policies", 1, {"split-1-share": "30,0"}).status_code == 303
    assert DRAFTBAR not in editor.html(), "30,0 is the stored 30"
    assert editor.rule("policies", 1, {"split-1-share": "25", "split-0-share": "75"}).status_code \
        == 303
    assert "1 unsaved change" in editor.html()


def test_invalid_draft_is_never_sent_upstream(client, company, api, sandbox_log):
    set_stored(api, config(policy("Jó")))
    editor = Editor(client, company)
    broken = config(policy("Rossz", split=[{"percent": 60}, {"percent": 30}]))
    upload = {"file": (BytesIO(json.dumps(broken).encode()), "rossz.json")}
    response = editor.post("/import", upload, content_type="multipart/form-data")
    assert response.status_code == 303
    review = editor.html("/review")
    assert "they must add up to exactly 100" in review
    assert 'id="save-policies"' not in review
    sandbox_log.reset()
    assert editor.save().status_code == 303
    assert not sandbox_log.entries(company.id, method="PATCH")
    assert stored(api)["policies"][0]["name"] == "Jó"


def test_rule_with_errors_is_not_applied_to_the_draft(client, company, api, sandbox_log):
    editor = Editor(client, company)
    response = editor.rule("policies", None, {"name": "", "conditions-0-value": "Soft"})
    assert response.status_code == 400
    assert "Give the rule a name." in response.get_data(as_text=True)
    assert "Unsaved changes" not in editor.html()
    assert not sandbox_log.entries(company.id, method="PATCH")


def test_delete_sends_null_only_after_a_confirmation_naming_what_is_lost(
        client, company, api, sandbox_log):
    set_stored(api, config(policy("Szoftver"), ignore=[
        {"name": "Tesztszámlák", "conditions": [
            {"field": "invoice_number", "op": "starts_with", "value": "T"}]}]))
    editor = Editor(client, company)
    page = editor.html("/delete")
    assert "Szoftver" in page and "Tesztszámlák" in page and "1 policy" in page
    sandbox_log.reset()
    refused = editor.post("/delete", {"stored": _hidden(page, "stored")}, page="/delete")
    assert refused.status_code == 400
    assert not sandbox_log.entries(company.id, method="PATCH")
    done = editor.post("/delete", {"stored": _hidden(page, "stored"), "confirm": "yes"},
                       page="/delete")
    assert done.status_code == 303
    [patch] = sandbox_log.entries(company.id, method="PATCH", path=UPDATE)
    assert stored(api) is None
    assert "All policy settings deleted" in editor.html("/history")


def _deleted_with_its_answer_lost(client, company, api, faults, sandbox_log):
    """(editor, the confirmation posted): the delete went through, its answer was lost (503)."""
    set_stored(api, config(policy("Szoftver")))
    editor = Editor(client, company, name="Kovács Anna")
    page = editor.html("/delete")
    confirm = {"stored": _hidden(page, "stored"), "confirm": "yes",
               "csrf_token": _hidden(page, "csrf_token")}
    faults.add(path=f"/2/company-info/update/{company.id}/", method="PATCH",
               kind="reset_after", count=1)
    sandbox_log.reset()
    assert client.post(editor.base + "/delete", data=confirm).status_code == 503
    assert stored(api) is None
    return editor, confirm


def _latest_is_the_users_deletion(app, company) -> None:
    with app.app_context():
        latest = list_versions(company.id)[0]
    assert (latest.config, latest.actor, latest.note) == (None, "Kovács Anna", "delete")


def test_a_delete_whose_answer_was_lost_is_found_done_when_confirmed_again(
        app, client, company, api, faults, sandbox_log):
    editor, confirm = _deleted_with_its_answer_lost(client, company, api, faults, sandbox_log)
    again = client.post(editor.base + "/delete", data=confirm, follow_redirects=True)
    assert "already deleted; nothing was sent again" in again.get_data(as_text=True)
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 1
    _latest_is_the_users_deletion(app, company)


def test_a_delete_whose_answer_was_lost_is_found_done_when_the_editor_is_opened(
        app, client, company, api, faults, sandbox_log):
    editor, _confirm = _deleted_with_its_answer_lost(client, company, api, faults, sandbox_log)
    opened = client.get(editor.base + "/", follow_redirects=True).get_data(as_text=True)
    assert "already deleted; nothing was sent again" in opened
    _latest_is_the_users_deletion(app, company)
    assert editor.rule("policies", None, {"name": "Új", "conditions-0-value": "Soft"}) \
        .status_code == 303
    assert editor.save().status_code == 303
    history = editor.html("/history")
    assert history.count("<strong>All policy settings deleted</strong>") == 1
    assert "changed outside Bookdesk" not in history
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 2


def test_a_delete_whose_answer_was_lost_is_found_done_when_the_history_is_opened(
        app, client, company, api, faults, sandbox_log):
    editor, _confirm = _deleted_with_its_answer_lost(client, company, api, faults, sandbox_log)
    history = editor.html("/history")
    assert "already deleted; nothing was sent again" in history
    assert history.count("<strong>All policy settings deleted</strong>") == 1
    assert "changed outside Bookdesk" not in history
    _latest_is_the_users_deletion(app, company)
    assert "already deleted" not in editor.html("/"), "recorded once"
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 1


def test_the_history_tells_a_deletion_as_done_what_is_to_come_keeps_its_future(
        client, company, api):
    set_stored(api, config(policy("Szoftver")))
    editor = Editor(client, company)
    page = editor.html("/delete")
    assert editor.post("/delete", {"stored": _hidden(page, "stored"), "confirm": "yes"},
                       page="/delete").status_code == 303
    history = editor.html("/history")
    assert "All policy settings were deleted." in history
    assert "will be deleted" not in history
    [to_come, *_removed] = diff_configs(config(policy("Szoftver")), None)
    assert to_come.text() == "All policy settings will be deleted."


def test_save_after_the_stored_config_changed_elsewhere_warns_first(client, company, api):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    assert editor.act("toggle", "policies", 0).status_code == 303
    set_stored(api, config(policy("Máshol")))
    review = editor.html("/review")
    assert "Someone changed the saved policies since you started editing" in review


def test_a_save_over_one_made_while_the_review_was_open_is_stopped_and_shown(client, company,
                                                                             api, sandbox_log):
    set_stored(api, config(policy("Első"), policy("Második")))
    editor = Editor(client, company)
    assert editor.act("toggle", "policies", 1).status_code == 303
    review = editor.html("/review")  # what the reviewer checks: the change against "Első" on
    other = config({**policy("Első"), "enabled": False}, policy("Második"))
    set_stored(api, other)  # another admin's save, while the review page is open
    sandbox_log.reset()
    response = client.post(editor.base + "/save", data={
        "rev": _hidden(review, "rev"), "stored": _hidden(review, "stored"),
        "csrf_token": _hidden(review, "csrf_token")})
    page = response.get_data(as_text=True)
    assert response.status_code == 409 and sandbox_log.entries(path=UPDATE) == []
    assert "Someone saved the income policies while you were reviewing them" in page
    undo = "Takes back a change saved since you began:</strong> Rule Első switched on."
    assert undo in page, "the other admin's change is shown as taken back"
    assert "Takes back a change saved since you began:</strong> Rule Második" not in page
    assert stored(api)["policies"][0]["enabled"] is False
    assert editor.save().status_code == 409, "not without saying to take their change back"
    assert sandbox_log.entries(path=UPDATE) == []
    assert editor.post("/save", {"take_back": "1"}, page="/review").status_code == 303
    assert [rule["enabled"] for rule in stored(api)["policies"]] == [True, False]


def _hidden(html: str, name: str) -> str:
    import re

    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def test_saving_names_new_records_drops_the_cached_catalogues(client, company, api, sandbox_log):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    editor.html()
    sandbox_log.reset()
    editor.html()
    assert not sandbox_log.entries(company.id, path="/2/revenue-types/"), "cached"
    editor.rule("policies", 0, {"revenue_type": "Vadonatúj típus", "new_tags": "Friss"})
    editor.save()
    sandbox_log.reset()
    editor.html()
    assert sandbox_log.entries(company.id, method="GET", path="/2/revenue-types/")
    assert sandbox_log.entries(company.id, method="GET", path="/2/tags/")


def test_upstream_refusing_the_policies_keeps_the_draft_and_says_why(
        client, company, api, faults):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    editor.act("toggle", "policies", 0)
    faults.add(path=f"/2/company-info/update/{company.id}/", method="PATCH", status=400)
    response = editor.save()
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "The accounting service did not accept the policies" in html
    assert "Injected fault: status 400." in html
    assert "Rule Régi switched off." in editor.html("/review"), "the draft is kept"
    assert "Saved" not in editor.html("/history")


def test_upstream_down_during_save_keeps_the_draft(client, company, api, faults):
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    editor.act("toggle", "policies", 0)
    faults.add(path=f"/2/company-info/update/{company.id}/", method="PATCH", status=503)
    assert editor.save().status_code == 503
    faults.clear()
    assert "Rule Régi switched off." in editor.html("/review")
    assert editor.save().status_code == 303
    assert stored(api)["policies"][0]["enabled"] is False


def _saved_with_its_answer_lost(client, company, api, faults, sandbox_log) -> Editor:
    """A rule renamed and saved; the save went through, its answer was lost (503)."""
    set_stored(api, config(policy("Régi")))
    editor = Editor(client, company)
    editor.rule("policies", 0, {"name": "Elveszett válasz"})
    faults.add(path=f"/2/company-info/update/{company.id}/", method="PATCH",
               kind="reset_after", count=1)
    sandbox_log.reset()
    assert editor.save().status_code == 503
    return editor


def test_a_save_whose_answer_is_lost_is_sent_once_and_recorded_once(
        client, company, api, faults, sandbox_log):
    editor = _saved_with_its_answer_lost(client, company, api, faults, sandbox_log)
    assert stored(api)["policies"][0]["name"] == "Elveszett válasz"
    assert editor.save().status_code == 303
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 1
    history = editor.html("/history")
    assert history.count("<strong>Saved</strong>") == 1
    assert "changed outside Bookdesk" not in history
    assert DRAFTBAR not in editor.html()


def test_a_save_whose_answer_was_lost_is_found_saved_when_the_editor_is_opened(
        client, company, api, faults, sandbox_log):
    editor = _saved_with_its_answer_lost(client, company, api, faults, sandbox_log)
    opened = client.get(editor.base + "/", follow_redirects=True).get_data(as_text=True)
    assert "The income policies were already saved; nothing was sent again." in opened
    assert DRAFTBAR not in opened and "changed elsewhere" not in opened
    assert len(sandbox_log.entries(company.id, method="PATCH")) == 1
    history = editor.html("/history")
    assert history.count("<strong>Saved</strong>") == 1
    assert "changed outside Bookdesk" not in history
