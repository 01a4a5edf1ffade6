"""The rule form: problems next to their fields, rows added and removed, references typed."""
from __future__ import annotations

import re

from tests.app.test_policy_editor_kit import (
    Editor,
    config,
    form_pairs,
    multi,
    policy,
    replace,
    set_stored,
    stored,
)

HTMX = {"HX-Request": "true", "HX-Target": "rule-form"}


def _cell_errors(html: str, field_id: str) -> str:
    """The text of the table cell or field block holding the input with this id."""
    at = html.index(f'id="{field_id}"')
    end = html.find("</td>", at)
    block_end = html.find('<div class="field', at + 1)
    return html[at:min(x for x in (end, block_end) if x > 0)]


def test_a_between_upper_value_that_cannot_be_read_is_refused_on_that_input(client, company):
    editor = Editor(client, company)
    response = editor.rule("policies", None, {
        "name": "Sáv", "conditions-0-field": "gross_amount", "conditions-0-op": "between",
        "conditions-0-value": "1", "conditions-0-value2": "1,234"}, op="check")
    html = response.get_data(as_text=True)
    cell = _cell_errors(html, "conditions-0-value")
    assert "Upper value: “1,234” can be read two ways." in cell
    assert re.search(r'id="conditions-0-value2"[^>]*aria-invalid="true"|'
                     r'aria-invalid="true"[^>]*id="conditions-0-value2"', html)
    assert 'value="1,234"' in html, "the typed text is kept"


def test_new_policy_is_added_to_the_draft_and_saved(client, company, api):
    editor = Editor(client, company)
    response = editor.rule("policies", None, {
        "name": "Szoftver", "conditions-0-value": "Soft", "revenue_type": "Szoftverlicenc",
        "job_number": "LIC-1", "new_tags": "Licenc, Budapest"})
    assert response.status_code == 303
    assert editor.save().status_code == 303
    [saved] = stored(api)["policies"]
    assert saved["conditions"] == [{"field": "partner_name", "op": "contains", "value": "Soft"}]
    budapest = {t["name"]: t["id"] for t in api.get("/2/tags/").json()}["Budapest"]
    assert saved["set"] == {"revenue_type": "Szoftverlicenc", "job_number": "LIC-1",
                            "tags": ["Licenc", budapest]}, "an existing tag's name is its id"


def test_problems_are_shown_next_to_their_condition_fields(client, company):
    editor = Editor(client, company)
    response = editor.rule("policies", None, {
        "name": "Nagy", "conditions-0-field": "gross_amount", "conditions-0-op": "gte",
        "conditions-0-value": "sok"}, op="check")
    html = response.get_data(as_text=True)
    # The form's own reading of an amount (app/numbers.py) speaks for the field.
    assert "Enter an amount, e.g. 1,234.50." in _cell_errors(html, "conditions-0-value")
    ambiguous = editor.rule("policies", None, {
        "name": "Nagy", "conditions-0-field": "gross_amount", "conditions-0-op": "gte",
        "conditions-0-value": "1,234"}, op="apply")
    assert ambiguous.status_code == 400
    assert "can be read two ways" in _cell_errors(ambiguous.get_data(as_text=True),
                                                  "conditions-0-value")
    wrong_op = editor.rule("policies", None, {
        "name": "Nagy", "conditions-0-field": "gross_amount", "conditions-0-op": "contains"},
        op="check").get_data(as_text=True)
    assert "field__errors" not in _cell_errors(wrong_op, "conditions-0-field")
    assert "is a number" in _cell_errors(wrong_op, "conditions-0-op")


def test_amounts_are_read_in_hungarian_and_english_notation(client, company, api):
    editor = Editor(client, company)
    editor.rule("policies", None, {
        "name": "Sáv", "conditions-0-field": "gross_amount", "conditions-0-op": "between",
        "conditions-0-value": "1 000,50", "conditions-0-value2": "2500", "job_number": "S"})
    editor.save()
    [saved] = stored(api)["policies"]
    assert saved["conditions"][0]["value"] == [1000.5, 2500]


def test_rows_are_added_and_removed_without_losing_what_was_typed(client, company):
    editor = Editor(client, company)
    added = editor.rule("policies", None, {"name": "Félkész", "conditions-0-value": "Soft"},
                        op="add-condition").get_data(as_text=True)
    assert 'id="conditions-1-field"' in added and 'value="Soft"' in added
    assert 'value="Félkész"' in added


def test_htmx_check_answers_the_form_fragment(client, company):
    editor = Editor(client, company)
    query = "/rule?section=policies"
    html = editor.html(query)
    pairs = replace(form_pairs(html, "rule-form"), {"name": "", "conditions-0-value": ""})
    response = client.post(editor.base + query, data=multi(pairs), headers=HTMX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert body.lstrip().startswith("<form id=\"rule-form\"") and "<html" not in body
    assert "Give the rule a name." in body
    assert "Enter the text to look for" in body


def test_split_check_says_whether_the_parts_cover_the_whole(client, company, api):
    set_stored(api, config(policy("Osztott", split=[{"percent": 70}, {"percent": 30}])))
    editor = Editor(client, company)
    ok = editor.rule("policies", 0, {}, op="check").get_data(as_text=True)
    assert "The parts add up to 100 percent" in ok
    short = editor.rule("policies", 0, {"split-1-share": "20"}, op="check").get_data(as_text=True)
    assert "The percent parts add up to 90%; they must add up to exactly 100%." in short
    amounts = editor.rule("policies", 0, {"split-0-kind": "amount", "split-0-share": "1000",
                                          "split-1-kind": "amount", "split-1-share": "270"},
                          op="check").get_data(as_text=True)
    assert "Only an income of exactly this gross amount is split" in amounts


def test_a_share_with_more_decimals_than_a_number_keeps_is_refused_never_rounded(
        client, company, api):
    # 50.00000000000000001 is 50.0 as a JSON number: the share would be stored changed.
    set_stored(api, config(policy("Osztott", split=[{"percent": 70}, {"percent": 30}])))
    editor = Editor(client, company)
    html = editor.rule("policies", 0, {"split-0-share": "50,00000000000000001",
                                       "split-1-share": "50"}, op="check").get_data(as_text=True)
    assert "at most 6 decimal places" in _cell_errors(html, "split-0-share")
    assert "The parts add up to 100 percent" not in html
    kept = editor.rule("policies", 0, {"split-0-share": "33,333333", "split-1-share": "66,666667"},
                       op="check").get_data(as_text=True)
    assert "The parts add up to 100 percent" in kept


def test_the_split_check_names_no_total_while_a_share_is_refused(client, company, api):
    # "1.000" is refused as two-way on its input: the check above may not read it as 1.00.
    set_stored(api, config(policy("Osztott", split=[{"percent": 70}, {"percent": 30}])))
    editor = Editor(client, company)
    html = editor.rule("policies", 0, {"split-0-kind": "amount", "split-0-share": "1.000",
                                       "split-1-share": "100"}, op="check").get_data(as_text=True)
    assert "can be read two ways" in _cell_errors(html, "split-0-share")
    assert "Enter a share for every part." in html
    assert "together) are taken first" not in html


def test_switching_split_on_starts_with_two_halves(client, company, api):
    set_stored(api, config(policy("Egyben")))
    editor = Editor(client, company)
    html = editor.rule("policies", 0, {"use_split": "y"}, op="check").get_data(as_text=True)
    shares = {tag[1]: re.search(r'value="([^"]*)"', tag[0])[1]
              for tag in re.findall(r'(<input[^>]*id="split-(\d+)-share"[^>]*>)', html)}
    assert shares == {"0": "50", "1": "50"}


def test_typed_names_of_new_records_are_marked_and_existing_ones_become_ids(
        client, company, api):
    existing = api.get("/2/revenue-types/").json()[0]
    editor = Editor(client, company)
    html = editor.rule("policies", None, {"name": "Új", "conditions-0-value": "x",
                                          "revenue_type": "Teljesen új bevétel"},
                       op="check").get_data(as_text=True)
    assert "will be created" in _cell_errors(html, "revenue_type") or "will be created" in html
    editor.rule("policies", None, {"name": "Régi", "conditions-0-value": "x",
                                   "revenue_type": existing["name"].upper()})
    editor.save()
    assert stored(api)["policies"][0]["set"]["revenue_type"] == existing["id"]


def test_existing_tags_are_ticked_and_new_ones_listed(client, company, api):
    tag = api.post("/2/tags/create/", json={"name": "Meglévő"}).json()
    tag = tag[0] if isinstance(tag, list) else tag
    set_stored(api, config(policy("Címkés", tags=[tag["id"], "Új címke"])))
    editor = Editor(client, company)
    html = editor.html("/rule?section=policies&index=0")
    assert re.search(rf'value="{tag["id"]}" checked', html)
    assert re.search(r'value="n:Új címke" checked', html)
    editor.rule("policies", 0, {"tags": [str(tag["id"])]})
    editor.save()
    assert stored(api)["policies"][0]["set"]["tags"] == [tag["id"]]


def test_unknown_rule_is_not_found(client, company):
    editor = Editor(client, company)
    assert editor.get("/rule?section=policies&index=7").status_code == 404
    assert editor.get("/rule?section=nope").status_code == 404


def test_a_rule_saved_with_one_field_changed_keeps_its_other_conditions_exactly(client, company,
                                                                               api):
    rule = policy("Kft", value=" Kft")
    rule["conditions"] += [{"field": "partner_name", "op": "in",
                            "value": ["Alfa; Béta Kft.", "Gamma"]},
                           {"field": "invoice_number", "op": "ends_with", "value": "-A "}]
    set_stored(api, config(rule))
    editor = Editor(client, company)
    assert editor.rule("policies", 0, {"job_number": "J-7"}).status_code == 303
    assert editor.save().status_code == 303
    [saved] = stored(api)["policies"]
    assert saved["conditions"] == rule["conditions"]
    assert saved["set"]["job_number"] == "J-7"
