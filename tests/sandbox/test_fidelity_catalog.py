"""Tags and VAT categories as the live API serves them (live-api-shapes.json): key set and types
of every answer, the live request forms, the filters, and every request field read back."""
from __future__ import annotations

import pytest

from tests.sandbox.live_shapes import live_response, shape_problems

VAT = "/2/accounting/vat-categories/"
# percent is a float by spec 9.5, where the live description still says integer.
PERCENT = {"percent": "number"}


def test_tag_answers_have_the_live_keys_and_types(api):
    created = api.post("/2/tags/create/", json={"tags": [{"name": "Élő címke"}]})
    assert created.status_code == 200
    assert shape_problems(created.json(), live_response("POST", "/2/tags/create")) == []
    tag_id = created.json()[0]["id"]
    updated = api.patch("/2/tags/update/", json={"tags": [{"id": tag_id, "name": "Élő 2"}]})
    assert shape_problems(updated.json(), live_response("PATCH", "/2/tags/update")) == []
    listed = api.get("/2/tags/").json()
    assert shape_problems(listed, live_response("GET", "/2/tags")) == []
    assert {"id": tag_id, "name": "Élő 2", "is_external": True} in listed


def test_tag_delete_answer_has_the_live_keys_and_types(api, sandbox_url):
    from tests.sandbox.incomes_support import make_income

    tags = {t["name"]: t["id"] for t in api.get("/2/tags/").json()}
    make_income(api, tags=[tags["Budapest"]])
    resp = api.post("/2/tags/delete/", json={"ids": [tags["Budapest"], tags["Debrecen"]]})
    assert resp.json()["deleted"] == [tags["Debrecen"]]
    assert resp.json()["not_deleted"] == [tags["Budapest"]]
    assert shape_problems(resp.json(), live_response("POST", "/2/tags/delete")) == []


@pytest.mark.parametrize(("query", "expected"), [
    ("name=PROJEKT", {"Projekt A", "Projekt B"}),
    ("name=bud", {"Budapest"}),
    ("is_external=true", {"Külső"}),
    ("is_external=false", {"Budapest", "Debrecen", "Projekt A", "Projekt B"}),
    ("is_external=false&name=projekt", {"Projekt A", "Projekt B"}),
    ("colour=blue&name=külső", {"Külső"}),
])
def test_tag_filters_keep_exactly_the_matching_tags(api, query, expected):
    assert api.post("/2/tags/create/", json={"name": "Külső"}).status_code == 200
    resp = api.get(f"/2/tags/?{query}")
    assert resp.status_code == 200
    assert {t["name"] for t in resp.json()} == expected


def test_malformed_tag_filter_is_a_400(api):
    resp = api.get("/2/tags/?is_external=maybe")
    assert resp.status_code == 400 and "is_external" in resp.json()


FULL_VAT = {"code": "K27", "name": "Kedvezményes 27", "percent": 27, "vat_area": "EU",
            "country": "AT", "type": "revenue"}


def test_vat_create_stores_every_field_and_answers_the_live_shape(api):
    resp = api.post(f"{VAT}create/", json={"vat_categories": [FULL_VAT,
                                                              {**FULL_VAT, "name": "Ikre"}]})
    assert resp.status_code == 200
    body = resp.json()
    assert [c["name"] for c in body["created_vat_categories"]] == ["Kedvezményes 27"]
    assert body["not_created_vat_categories"] == [
        {"code": "K27", "name": "Ikre",
         "reason": "A VAT category with this code already exists."}]
    shape = live_response("POST", "/2/accounting/vat-categories/create")
    assert shape_problems(body, shape) == []
    stored = next(c for c in api.get(VAT).json() if c["code"] == "K27")
    assert {key: stored[key] for key in FULL_VAT} == {**FULL_VAT, "percent": 27.0}


def test_vat_list_and_update_have_the_live_keys_and_types(api):
    created = api.post(f"{VAT}create/", json=FULL_VAT).json()["created_vat_categories"][0]
    listed = api.get(VAT).json()
    assert shape_problems(listed, live_response(
        "GET", "/2/accounting/vat-categories", overrides=PERCENT)) == []
    changes = {"code": "K28", "name": "Új név", "percent": 28.5, "vat_area": "HU",
               "country": "HU"}
    resp = api.post(f"{VAT}update/{created['id']}/", json=changes)
    assert resp.status_code == 200
    shape = live_response("POST", "/2/accounting/vat-categories/update/"
                                  "{company_vat_category_id}", overrides=PERCENT)
    assert shape_problems(resp.json(), shape) == []
    stored = next(c for c in api.get(VAT).json() if c["id"] == created["id"])
    assert {key: stored[key] for key in changes} == changes


def test_vat_update_to_a_used_code_is_refused(api):
    first, second = api.post(f"{VAT}create/", json=[
        {**FULL_VAT, "code": "A1"}, {**FULL_VAT, "code": "B2"}]).json()["created_vat_categories"]
    resp = api.post(f"{VAT}update/{second['id']}/", json={"code": "A1"})
    assert resp.status_code == 400 and "code" in resp.json()


@pytest.mark.parametrize(("query", "expected"), [("type=cost", {"cost"}),
                                                 ("type=revenue", {"revenue"}),
                                                 ("colour=blue", {"cost", "revenue"})])
def test_vat_type_filter_keeps_exactly_that_type(api, query, expected):
    assert {c["type"] for c in api.get(f"{VAT}?{query}").json()} == expected


def test_malformed_vat_type_filter_is_a_400(api):
    resp = api.get(f"{VAT}?type=both")
    assert resp.status_code == 400 and "type" in resp.json()
