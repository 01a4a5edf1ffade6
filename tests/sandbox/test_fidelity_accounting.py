"""Fidelity of ledger numbers to the live API (key sets and types, the create answer with
created / not created lists, delete 204) and the live VAT category delete. VAT category create
and code: tests/sandbox/test_fidelity_catalog.py."""
from __future__ import annotations

from tests.sandbox.live_shapes import bare_list_problems, live_response, shape_problems

LEDGER = "/2/accounting/ledger-numbers/"
VAT = "/2/accounting/vat-categories/"


def test_ledger_list_and_create_carry_the_live_keys(api):
    body = api.post(f"{LEDGER}create/", json={"ledger_numbers": [
        {"code": "5391", "name": "Bank"}, {"code": "", "name": "Üres"}]}).json()
    assert shape_problems(body, live_response(
        "POST", "/2/accounting/ledger-numbers/create")) == []
    assert bare_list_problems(api.get(LEDGER).json(), "GET",
                              "/2/accounting/ledger-numbers") == []


def test_ledger_update_carries_the_live_keys(api):
    row = api.get(LEDGER).json()[0]
    body = api.post(f"{LEDGER}update/{row['id']}/", json={"code": "X9", "name": "Új"}).json()
    assert shape_problems(body, live_response(
        "POST", "/2/accounting/ledger-numbers/update/{ledger_number_id}")) == []


def test_vat_delete_answers_204_and_removes_an_unused_category(api):
    made = api.post(f"{VAT}create/", json={"vat_categories": [{"name": "Ideiglenes",
                                                              "percent": 1}]}).json()
    made_id = made["created_vat_categories"][0]["id"]
    resp = api.post(f"{VAT}delete/", json={"ids": [made_id]})
    assert resp.status_code == 204
    assert made_id not in [r["id"] for r in api.get(VAT).json()]


def test_vat_delete_of_a_used_or_unknown_category_deletes_nothing(api):
    made = api.post(f"{VAT}create/", json={"vat_categories": [{"name": "Marad",
                                                              "percent": 1}]}).json()
    made_id = made["created_vat_categories"][0]["id"]
    resp = api.post(f"{VAT}delete/", json={"ids": [made_id, 10**12]})
    assert resp.status_code == 400 and resp.json()["failed_ids"] == [10**12]
    assert made_id in [r["id"] for r in api.get(VAT).json()]


def test_vat_delete_is_refused_for_viewer(api):
    row = api.get(VAT).json()[-1]
    assert api.post(f"{VAT}delete/", json={"ids": [row["id"]]}, token="viewer").status_code == 403
