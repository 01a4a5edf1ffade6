"""The policy pages name what a rule compares with and sets as the rest of the app does: a VAT
area and an income type by name, a ledger number as "code – name"; a code or an id the app
or the company does not know is shown as it is and marked "not found"."""
from __future__ import annotations

import html
import re

from tests.app.test_policy_editor_kit import Editor, config, policy, set_stored, stored
from tests.app.test_policy_editor_preview import invoice

HUNGARIAN = {"Accept-Language": "hu"}
CONDITIONS = re.compile(r'<ul class="conditions">(.*?)</ul>', re.S)
ITEM = re.compile(r"<li>(.*?)</li>", re.S)
TAG = re.compile(r"<[^>]+>")
SETS = re.compile(r'<span class="sets">(.*?)</span></span>', re.S)
NOT_FOUND = '<span class="badge badge--danger">not found</span>'


def _words(fragment: str) -> str:
    return " ".join(html.unescape(TAG.sub("", fragment)).split())


def _conditions(page: str) -> list[list[str]]:
    """Each rule card's condition lines, as read (tags stripped)."""
    return [[_words(item) for item in ITEM.findall(block)] for block in CONDITIONS.findall(page)]


def _condition_items(page: str) -> list[str]:
    """Each condition line's HTML, for the badges in it."""
    return [item for block in CONDITIONS.findall(page) for item in ITEM.findall(block)]


def _sets(page: str) -> list[str]:
    """What each rule card sets, item by item, as read."""
    return [_words(item) for item in SETS.findall(page)]


def _vat_rule(*conditions):
    return {**policy("ÁFA"), "conditions": [{"field": "vat_area", "op": op, "value": value}
                                            for op, value in conditions]}


def test_conditions_name_the_vat_areas_as_the_income_form_does(client, company, api):
    set_stored(api, config(_vat_rule(("in", ["EU", "3rd"]), ("equals", "hu"),
                                     ("not_equals", "XX"), ("contains", "EU"))))
    editor = Editor(client, company)
    assert _conditions(editor.html()) == [[
        "VAT area is one of European Union, Outside the EU", "VAT area is Hungary",
        "VAT area is not “XX” not found", "VAT area contains “EU”"]]
    hungarian = editor.get("/", headers=HUNGARIAN).get_data(as_text=True)
    assert _conditions(hungarian)[0][:2] == ["ÁFA-terület ezek egyike Európai Unió, EU-n kívül",
                                             "ÁFA-terület egyenlő Magyarország"]


def test_an_unknown_vat_area_is_shown_as_it_is_and_marked_not_found(client, company, api):
    set_stored(api, config(_vat_rule(("in", ["EU", "XX"]))))
    item = _condition_items(Editor(client, company).html())[0]
    assert "European Union" in item and "“XX”" in html.unescape(item)
    assert item.count(NOT_FOUND) == 1
    assert item.index("European Union") < item.index("XX") < item.index(NOT_FOUND)


def test_conditions_name_the_income_types_in_lower_case_inside_the_sentence(client, company, api):
    set_stored(api, config(policy("Nyugták", field="type", op="in", value=[6, "7", 5]),
                           policy("Számlák", field="type", op="equals", value=1),
                           policy("Nagyobb", field="type", op="gte", value=2)))
    editor = Editor(client, company)
    page = editor.html()
    assert _conditions(page) == [
        ["Document type is one of cash receipt, collective receipt, 5 not found"],
        ["Document type is invoice"], ["Document type is at least 2"]]
    assert _condition_items(page)[0].count(NOT_FOUND) == 1
    hungarian = editor.get("/", headers=HUNGARIAN).get_data(as_text=True)
    assert _conditions(hungarian)[:2] == [
        ["Bizonylattípus ezek egyike nyugta, gyűjtőnyugta, 5 nem található"],
        ["Bizonylattípus egyenlő számla"]]


def test_a_ledger_number_reads_code_dash_name_on_the_card_and_in_the_form(client, company, api):
    ids = {n["code"]: n["id"] for n in api.get("/2/accounting/ledger-numbers/").json()}
    set_stored(api, config(policy("Kód", ledger_number="912"),
                           policy("Azonosító", ledger_number=ids["931"]),
                           policy("Ismeretlen", ledger_number=999999)))
    editor = Editor(client, company)
    page = editor.html()
    assert _sets(page) == ["Ledger number: 912 – Szolgáltatás árbevétele",
                           "Ledger number: 931 – Export árbevétel",
                           "Ledger number: #999999 not found"]
    assert "912 · " not in page
    form = editor.html("/rule?section=policies&index=0")
    assert 'value="912 – Szolgáltatás árbevétele"' in html.unescape(form)


def test_a_ledger_number_shown_by_its_label_is_saved_as_it_was_stored(client, company, api):
    set_stored(api, config(policy("Kód", ledger_number="912", job_number="A")))
    editor = Editor(client, company)
    assert editor.rule("policies", 0, {"job_number": "B"}).status_code == 303
    assert editor.save().status_code == 303
    assert stored(api)["policies"][0]["set"] == {"ledger_number": "912", "job_number": "B"}


def test_the_preview_and_the_history_write_a_ledger_number_as_code_dash_name(client, company,
                                                                             api):
    set_stored(api, config(policy("Régi", job_number="A")))
    assert api.post("/_sandbox/import-income/", json=invoice("SZ-1")).status_code in (200, 201)
    editor = Editor(client, company)
    assert editor.rule("policies", 0, {"ledger_number": "912"}).status_code == 303
    preview = editor.html("/preview?months=1")
    assert '<span class="change-lines__label">Ledger number:</span> ' in preview
    assert '<span class="change-lines__to">912 – Szolgáltatás árbevétele</span>' in preview
    assert editor.save().status_code == 303
    history = _words(editor.html("/history"))
    assert ("Rule Régi: what it sets changed — Ledger number: (not set) → "
            "912 – Szolgáltatás árbevétele.") in history
