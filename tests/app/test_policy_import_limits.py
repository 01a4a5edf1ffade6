"""Policy import limits: non-finite numbers, deep nesting and oversized files are refused with a
message; a draft that breaks a limit (kept from before) is shown as a problem, never a 500."""
from __future__ import annotations

import json
from io import BytesIO

import pytest

from app.policies.editor.flow import shape_problems
from app.policies.editor.history import MAX_DEPTH, MAX_RULES, MAX_TEXT, limit_problems
from tests.app.test_policy_editor_kit import Editor, config, policy

DRAFTBAR = 'class="draftbar'


def _threshold(value: str) -> bytes:
    """A policy file whose amount threshold is written as value (raw JSON text)."""
    text = json.dumps(config(policy("Nagy", field="gross_amount", op="gt", value=12345)))
    return text.replace("12345", value).encode()


def _nested(depth: int) -> bytes:
    rule = json.dumps(policy("Mély")).replace('"set"', f'"x_extra": {"[" * depth}{"]" * depth}, '
                                                       '"set"')
    return json.dumps(config()).replace('"policies": []', f'"policies": [{rule}]').encode()


REFUSED = {
    "NaN": (_threshold("NaN"), "holds NaN, which is not a number"),
    "Infinity": (_threshold("Infinity"), "holds Infinity"),
    "-Infinity": (_threshold("-Infinity"), "holds -Infinity"),
    "1e400": (_threshold("1e400"), "holds 1e400"),
    "5000 digits": (_threshold("9" * 5000), "more than 30 digits"),
    "100000 deep": (_nested(100_000), f"more than {MAX_DEPTH} levels deep"),
    "40 deep": (_nested(40), f"more than {MAX_DEPTH} levels deep"),
    "too many rules": (json.dumps(config(*[policy(f"P{i}") for i in range(MAX_RULES + 1)]))
                       .encode(), f"more than {MAX_RULES} rules"),
    "long text": (json.dumps(config(policy("L" * (MAX_TEXT + 1)))).encode(),
                  f"longer than {MAX_TEXT} characters"),
}


def _upload(editor, content: bytes):
    return editor.post("/import", {"file": (BytesIO(content), "policies.json")},
                       content_type="multipart/form-data")


@pytest.mark.parametrize("label", REFUSED)
def test_a_policy_file_breaking_a_limit_is_refused_with_a_message(client, company, label):
    content, message = REFUSED[label]
    editor = Editor(client, company)
    response = _upload(editor, content)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert DRAFTBAR not in editor.html()


def test_a_file_within_the_limits_is_still_imported(client, company):
    editor = Editor(client, company)
    response = _upload(editor, _threshold("1e5"))
    assert response.status_code == 303
    assert "Your draft is the file policies.json." in editor.html("/review")


def _plant_draft(client, company, draft: dict) -> None:
    """Put a draft into the session as a Bookdesk before these limits could have kept it."""
    with client.session_transaction() as session:
        session["policy_drafts"] = {str(company.id): {"config": draft, "base": "", "rev": 1,
                                                      "origin": "import:old.json"}}


def test_a_kept_draft_with_nan_is_shown_as_a_problem_and_never_saved(client, company,
                                                                      sandbox_log):
    editor = Editor(client, company)
    _plant_draft(client, company, config(policy("NaN", field="gross_amount", op="gt",
                                                value=float("nan"))))
    page = editor.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "cannot be edited here because of their structure" in html
    assert "The number at policies/0/conditions/0/value is not finite" in html
    assert editor.get("/rule?section=policies&index=0").status_code == 303
    for path in ("/review", "/preview", "/export?what=draft"):
        assert editor.get(path).status_code == 200, path
    sandbox_log.reset()
    assert editor.save().status_code == 303
    assert not sandbox_log.entries(company.id, method="PATCH")
    assert editor.post("/discard", {}).status_code == 303
    assert DRAFTBAR not in editor.html()


def test_limit_problems_walks_deep_structures_without_recursion():
    deep: list = []
    for _ in range(50_000):
        deep = [deep]
    assert limit_problems({"v": 2, "policies": deep})[0].params == {"max": MAX_DEPTH}
    assert limit_problems(config(policy("Jó"))) == []


def test_a_kept_version_with_infinity_is_shown_as_a_problem(app, client, company):
    from app.store.db import store_session
    from app.store.history import Actor, add_version

    editor = Editor(client, company)
    with app.app_context():
        broken = config(policy("Végtelen", split=[{"amount": float("inf")}]))
        version_id = add_version(company.id, broken, Actor("Régi", "fp")).id
        store_session().commit()
    page = editor.get(f"/version?id={version_id}")
    assert page.status_code == 200
    assert "The number at policies/0/set/split/0/amount is not finite" in page.get_data(
        as_text=True)


def test_a_rule_form_with_a_text_over_the_limit_is_not_applied(client, company):
    editor = Editor(client, company)
    response = editor.rule(changes={"name": "N" * (MAX_TEXT + 1)})
    assert response.status_code == 400
    assert f"longer than {MAX_TEXT} characters" in response.get_data(as_text=True)
    assert DRAFTBAR not in editor.html()


@pytest.mark.parametrize(("split", "stops"), [("fele", True), ({}, True), ([], False)])
def test_only_a_split_that_is_not_a_list_stops_the_editor(split, stops):
    found = shape_problems(config(policy("Osztott", split=split)))
    assert any(problem.path[-1:] == ("split",) for problem in found) == stops
