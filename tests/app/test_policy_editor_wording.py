"""What the editor tells a bookkeeper about a policy file it cannot take, a split part without
a share, and a rule without a name."""
from __future__ import annotations

import html
import json
from io import BytesIO

from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored

HUNGARIAN = {"Accept-Language": "hu"}


def _import(editor, content: dict):
    return editor.post("/import", {"file": (BytesIO(json.dumps(content).encode()), "p.json")},
                       content_type="multipart/form-data")


def test_a_version_written_as_text_is_told_it_must_be_the_number(client, company):
    editor = Editor(client, company)
    response = _import(editor, {**config(policy("Szoftver")), "v": "2"})
    assert response.status_code == 400
    page = html.unescape(response.get_data(as_text=True))
    assert 'The format version must be the number 2 ("v": 2), not the text "2".' in page
    assert "only version 2 is supported" not in page


def test_a_split_part_without_a_share_is_asked_for_one(client, company):
    split = [{"percent": 100, "revenue_type": "Termék"}, {"revenue_type": "Szolgáltatás"},
             {"percent": 50, "amount": "10.00"}]
    editor = Editor(client, company)
    assert _import(editor, config(policy("Osztott", split=split))).status_code == 303
    review = editor.html("/review")
    assert review.count("Give this part a percent or an amount.") == 1
    assert review.count("Give each part either a percent or an amount, not both.") == 1


def test_an_unnamed_rule_is_named_by_its_number_in_the_editor(client, company):
    editor = Editor(client, company)
    assert _import(editor, config(policy("Első"), policy(""))).status_code == 303
    page = html.unescape(editor.html())
    assert 'aria-label="Move (no name, #2) up"' in page
    assert 'data-confirm="Remove (no name, #2) from the draft?"' in page
    assert "Move  up" not in page and "Remove  from" not in page


def test_the_review_names_what_a_rule_sets_before_and_after(client, company, api):
    first, second = api.get("/2/revenue-types/").json()[:2]
    set_stored(api, config(policy("Szoftver", revenue_type=first["id"]), x_top=1))
    editor = Editor(client, company)
    changed = config(policy("Szoftver", revenue_type=second["id"], job_number="LIC-1"), x_top=2)
    assert _import(editor, changed).status_code == 303
    review = html.unescape(editor.html("/review"))
    assert (f"Rule Szoftver: what it sets changed — Revenue type: {first['name']} → "
            f"{second['name']}.") in review
    assert "Rule Szoftver: what it sets changed — Job number: (not set) → LIC-1." in review
    assert "Other settings Bookdesk does not edit changed: x_top." in review
    assert "Rule Szoftver: what it sets changed.<" not in review
    assert "Other settings changed." not in review


def test_the_history_names_what_a_rule_sets_before_and_after(client, company, api):
    set_stored(api, config(policy("Régi", revenue_type="Termék")))
    editor = Editor(client, company)
    assert editor.rule("policies", 0, {"revenue_type": "Szolgáltatás"}).status_code == 303
    assert editor.save().status_code == 303
    page = html.unescape(editor.html("/history"))
    assert "Rule Régi: what it sets changed — Revenue type: Termék → Szolgáltatás." in page


def test_the_review_names_an_unnamed_rule_by_its_number(client, company):
    editor = Editor(client, company)
    assert _import(editor, config(policy("Első"), policy(""))).status_code == 303
    assert "Rule (no name, #2) added." in html.unescape(editor.html("/review"))
    hungarian = client.get(editor.base + "/review", headers=HUNGARIAN).get_data(as_text=True)
    assert "„” szabály" not in html.unescape(hungarian)
    assert "szabály hozzáadva" in html.unescape(hungarian)
